import { Button, EmptyState, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconBrain, IconDownload, IconFolders, IconSparkles } from '@tabler/icons-react';
import { hasFilters } from '../case-navigation/list-search.ts';
import { useCaseSearch } from './case-list.queries.ts';
import { CaseListHeader } from './CaseListHeader.tsx';
import { CaseListPager } from './CaseListPager.tsx';
import { CaseListToolbar } from './CaseListToolbar.tsx';
import { CaseSearchDialog } from './CaseSearchDialog.tsx';
import { CaseTable } from './CaseTable.tsx';
import { ActiveFilterBar } from './ActiveFilterBar.tsx';
import { nextOrder, organizationScope } from './list-state.ts';
import { queryToForm, replaceSearchFields, withCaseNumber } from './search-form.ts';
import { useCaseListState } from './useCaseListState.ts';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { UploadImagesButton } from '../uploads/UploadImagesButton.tsx';
import { useDownloadDrawings } from '../drawings/useDownloadDrawings.ts';
import { SetModelDialog } from '../case-images/SetModelDialog.tsx';
import { AiAgreementDialog, AiWarningBanner } from '../predictions/AiAgreement.tsx';
import { useAiConsent } from '../predictions/ai-consent.ts';
import { useStartAnalysis } from '../predictions/useStartAnalysis.ts';

/** /cases: the case list of part 1 §2, its state in the URL. */
export function CaseListPage() {
  const { t } = useTranslation();
  const state = useCaseListState();
  const { search, effective, setSearch, setting, updateSetting } = state;
  const result = useCaseSearch(state.request);
  const [searchOpen, setSearchOpen] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const scope = organizationScope(effective.query);
  const listOrganization = scope.kind === 'one' ? state.organizations.find((o) => o.id === scope.id) : state.current;
  const canCreate = state.isSuperUser || (listOrganization?.userCapabilities.canCreateCase ?? false);
  const caseNumber = search.query.find((expression) => expression.field === 'caseNumber');
  const caseNumberText = typeof caseNumber?.value === 'string' ? caseNumber.value : '';
  const loading = !state.ready || result.isPending || (result.isFetching && result.isPlaceholderData);
  const data = result.isError ? undefined : result.data;

  const drawings = useDownloadDrawings();
  // Part 2 §6: offered where drawings may be downloaded; the server checks every chosen image again.
  const canDownloadDrawings = data?.data.some((item) => item.userCapabilities.canDownloadDrawings) ?? false;

  const ai = useAiConsent(listOrganization);
  const analysis = useStartAnalysis();
  const [settingModel, setSettingModel] = useState(false);
  // Part 1 §2: offered where the group predicts and the caller may request; the server checks each image again.
  const canAnalyse = ai.aiEnabled && (data?.data.some((item) => item.userCapabilities.canRequestPrediction) ?? false);
  const selectedImages = (data?.data ?? []).flatMap((item) =>
    item.images
      .filter((image) => selected.has(image.id))
      .map((image) => ({ ...image, organizationId: item.organizationId })),
  );

  const select = (imageIds: string[], checked: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of imageIds) {
        if (checked) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  return (
    <Stack gap="sm" data-testid="case-list">
      <CaseListHeader
        data={data}
        page={search.page}
        limit={search.limit}
        canTransfer={state.roles?.isAdministrator ?? false}
        canCreate={canCreate}
        uploadAction={
          canCreate && listOrganization ? (
            <UploadImagesButton
              organization={listOrganization}
              showModel={ai.aiEnabled || (state.isSuperUser && !ai.declined)}
            />
          ) : undefined
        }
      />
      <AiAgreementDialog group={listOrganization} />
      <AiWarningBanner group={listOrganization} />
      <CaseListToolbar state={state} onOpenSearch={() => setSearchOpen(true)} />
      <ActiveFilterBar
        search={search}
        onEdit={() => setSearchOpen(true)}
        onReset={() =>
          setSearch({
            query: search.query.filter((expression) => expression.field === 'organizationId'),
            starred: false,
            publicLabel: undefined,
            visibility: 'all',
          })
        }
      />
      {result.isError && (
        <LoadErrorAlert
          title={t('caseList.loadFailed')}
          error={result.error}
          retryLabel={t('caseList.retry')}
          onRetry={() => result.refetch()}
          testId="case-list-error"
        />
      )}
      {!result.isError && (
        <CaseTable
          search={effective}
          data={data}
          loading={loading}
          setting={setting}
          caseNumberFilter={caseNumberText}
          onCaseNumberFilter={(text) => setSearch({ query: withCaseNumber(search.query, text) })}
          onSort={(field) => {
            const order = nextOrder(search.order, field);
            setSearch({ order });
            updateSetting({ order });
          }}
          selected={selected}
          onSelect={select}
        />
      )}
      {data && data.data.length === 0 && (
        <Paper withBorder radius="md" py={40} px="lg" data-testid="case-list-empty">
          <EmptyState
            variant="light"
            size="sm"
            icon={<IconFolders size={24} />}
            title={t('caseList.empty.title')}
            description={hasFilters(search) ? t('caseList.empty.filtered') : t('caseList.empty.description')}
          />
        </Paper>
      )}
      <SetModelDialog opened={settingModel} onClose={() => setSettingModel(false)} imageIds={[...selected]} />
      <Group justify="space-between" align="center" wrap="wrap">
        {selected.size > 0 || canDownloadDrawings || canAnalyse ? (
          <Group gap="xs">
            {canAnalyse && (
              <>
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconSparkles size={15} />}
                  disabled={selected.size === 0}
                  loading={analysis.busy}
                  onClick={() => void analysis.start(selectedImages)}
                  data-testid="start-analysis"
                >
                  {t('predictions.start.button')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconBrain size={15} />}
                  disabled={selected.size === 0}
                  onClick={() => setSettingModel(true)}
                  data-testid="set-model"
                >
                  {t('caseImages.model.button')}
                </Button>
              </>
            )}
            {canDownloadDrawings && (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconDownload size={15} />}
                disabled={selected.size === 0}
                loading={drawings.busy}
                onClick={() => drawings.download([...selected])}
                data-testid="download-drawings"
              >
                {t('drawings.download.button')}
              </Button>
            )}
            {selected.size > 0 && (
              <>
                <Text size="xs" c="dimmed" data-testid="selected-images">
                  {t('caseList.images.selected', { count: selected.size })}
                </Text>
                <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setSelected(new Set())}>
                  {t('caseList.images.clearSelection')}
                </Button>
              </>
            )}
          </Group>
        ) : (
          <span />
        )}
        {data && (
          <CaseListPager
            total={data.total}
            page={search.page}
            limit={search.limit}
            onPage={(page) => setSearch({ page })}
            onLimit={(limit) => {
              setSearch({ limit });
              updateSetting({ pageSize: limit });
            }}
          />
        )}
      </Group>
      <CaseSearchDialog
        opened={searchOpen}
        initial={queryToForm(search.query)}
        initialVisibility={search.visibility}
        showVisibility={state.isSuperUser}
        showModel={state.isSuperUser || (listOrganization?.predictionEnabled ?? false)}
        onClose={() => setSearchOpen(false)}
        onSearch={(values, visibility) => {
          setSearchOpen(false);
          setSearch({ query: replaceSearchFields(search.query, values), visibility });
        }}
      />
    </Stack>
  );
}
