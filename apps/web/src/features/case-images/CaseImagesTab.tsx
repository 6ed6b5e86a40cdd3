import type { Case, Image } from '@pathology/contract';
import { Alert, EmptyState, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { IconAlertCircle, IconPhoto } from '@tabler/icons-react';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { CaseImageUpload } from '../uploads/CaseImageUpload.tsx';
import { caseDetailQueryKeys } from '../case-detail/case-detail.queries.ts';
import { caseImagesQueryKeys, isInProgress, useCaseImageLabels, useCaseImages } from './case-images.queries.ts';
import { useLabelChange } from '../case-list/case-list.queries.ts';
import { ImageLabelToggles } from '../case-list/ImageLabelToggles.tsx';
import { useMaxCaseImages } from '../../app/auth/auth-config.queries.ts';
import { useCaseDetailSetting } from './case-detail-setting.queries.ts';
import { CaseImagesToolbar } from './CaseImagesToolbar.tsx';
import { CopyImageDialog } from './CopyImageDialog.tsx';
import { ImageCard } from './ImageCard.tsx';
import { sortImages } from './image-order.ts';
import { ImageSearchDialog } from './ImageSearchDialog.tsx';
import { ImageSortDialog } from './ImageSortDialog.tsx';
import { AiAgreementDialog } from '../predictions/AiAgreement.tsx';
import { ChooseModelDialog } from '../predictions/ChooseModelDialog.tsx';
import { useGroupAiConsent } from '../predictions/useGroupAiConsent.ts';
import { SetModelDialog } from './SetModelDialog.tsx';
import { useImageActions } from './useImageActions.tsx';

function LoadingImages() {
  return (
    <SimpleGrid type="container" cols={{ base: 1, '480px': 2, '780px': 3 }} data-testid="case-images-loading" aria-busy>
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} height={250} radius="md" />
      ))}
    </SimpleGrid>
  );
}

/** The Images tab of case detail: the case's images by display name, with upload, open, download and delete. */
export function CaseImagesTab({ item }: { item: Case }) {
  const { t } = useTranslation();
  const location = useLocation();
  const queryClient = useQueryClient();
  const found = useCaseImages(item.id);
  const actions = useImageActions(item.id);
  const caps = item.userCapabilities;
  const maxImages = useMaxCaseImages();
  const { setting, save: saveSetting } = useCaseDetailSetting();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<'sort' | 'search' | 'model' | 'analysis' | null>(null);
  const ai = useGroupAiConsent(item.organizationId);
  const [matches, setMatches] = useState<ReadonlySet<string> | null>(null);
  const [copying, setCopying] = useState<Image | null>(null);
  const labels = useCaseImageLabels(item.id);
  const labelChange = useLabelChange();

  // Stable: the upload component subscribes to upload events with it.
  const onUploaded = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: caseImagesQueryKeys.list(item.id) });
    void queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(item.id), exact: true });
  }, [queryClient, item.id]);

  const upload = caps.canUploadImage ? (
    <CaseImageUpload caseId={item.id} caseNumber={item.caseNumber} onUploaded={onUploaded} />
  ) : null;

  if (found.isPending) return <LoadingImages />;
  if (found.isError) {
    return (
      <LoadErrorAlert
        title={t('caseImages.loadFailed')}
        error={found.error}
        retryLabel={t('caseImages.retry')}
        onRetry={() => found.refetch()}
        testId="case-images-error"
      />
    );
  }

  const images = found.data;
  const href = (imageId: string) =>
    `/cases/${encodeURIComponent(item.id)}/images/${encodeURIComponent(imageId)}${location.search}`;

  if (images.length === 0) {
    return (
      <Stack gap="md" data-testid="case-images-tab">
        <EmptyState
          variant="light"
          py="xl"
          icon={<IconPhoto size={28} />}
          title={t('caseImages.empty.title')}
          description={t(caps.canUploadImage ? 'caseImages.empty.canUpload' : 'caseImages.empty.readOnly')}
          data-testid="case-images-empty"
        />
        {upload}
      </Stack>
    );
  }

  const working = images.filter(isInProgress).length;
  const shown = sortImages(matches ? images.filter((image) => matches.has(image.id)) : images, setting);
  const select = (imageId: string, checked: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (checked) next.add(imageId);
      else next.delete(imageId);
      return next;
    });
  return (
    <Stack gap="md" data-testid="case-images-tab">
      <Group justify="space-between" align="baseline" gap="xs">
        <Title order={3} fz="md">
          {t('caseImages.count', { count: images.length })}
        </Title>
        {working > 0 && (
          <Text size="xs" c="dimmed" aria-live="polite" data-testid="case-images-working">
            {t('caseImages.working', { count: working })}
          </Text>
        )}
      </Group>
      {images.length >= maxImages && (
        <Alert color="yellow" variant="light" icon={<IconAlertCircle size={20} />} data-testid="case-images-too-many">
          {t('caseImages.tooMany', { max: maxImages })}
        </Alert>
      )}
      {upload}
      <CaseImagesToolbar
        item={item}
        imageCount={images.length}
        selected={selected}
        onClearSelection={() => setSelected(new Set())}
        onSort={() => setDialog('sort')}
        onSearch={() => setDialog('search')}
        searchResult={matches ? { shown: shown.length, total: images.length } : null}
        onClearSearch={() => setMatches(null)}
        onSetModel={ai.aiEnabled ? () => setDialog('model') : undefined}
        onStartAnalysis={caps.canRequestPrediction && ai.aiEnabled ? () => setDialog('analysis') : undefined}
      />
      {/* Columns follow the tab's own width, which depends on whether the info panel is open. */}
      <SimpleGrid
        type="container"
        cols={{ base: 1, '480px': 2, '780px': 3, '1080px': 4 }}
        spacing="md"
        data-testid="case-images"
      >
        {shown.map((image) => (
          <ImageCard
            key={image.id}
            image={image}
            href={href(image.id)}
            caps={caps}
            actions={actions}
            selected={selected.has(image.id)}
            onSelect={(checked) => select(image.id, checked)}
            onCopy={() => setCopying(image)}
            labels={
              labels.data?.get(image.id) && (
                <ImageLabelToggles image={labels.data.get(image.id)!} caps={caps} labelChange={labelChange} />
              )
            }
          />
        ))}
      </SimpleGrid>
      <ImageSortDialog
        opened={dialog === 'sort'}
        onClose={() => setDialog(null)}
        setting={setting}
        onApply={saveSetting}
      />
      <ImageSearchDialog
        opened={dialog === 'search'}
        onClose={() => setDialog(null)}
        caseId={item.id}
        onFound={setMatches}
      />
      <SetModelDialog opened={dialog === 'model'} onClose={() => setDialog(null)} imageIds={[...selected]} />
      {caps.canRequestPrediction && <AiAgreementDialog group={ai.group} />}
      <ChooseModelDialog
        opened={dialog === 'analysis'}
        onClose={() => setDialog(null)}
        images={images
          .filter((image) => selected.has(image.id))
          .map((image) => ({ ...image, predictionSummary: image.predictions, organizationId: item.organizationId }))}
      />
      <CopyImageDialog image={copying} onClose={() => setCopying(null)} onCopied={() => undefined} />
    </Stack>
  );
}
