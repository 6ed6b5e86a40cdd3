import { Grid, Skeleton, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { AuthError } from '../../api/client.ts';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { readCaseNavigation } from '../case-navigation/case-navigation.ts';
import { hasFilters } from '../case-navigation/list-search.ts';
import { CaseDetailHeader } from './CaseDetailHeader.tsx';
import { CaseDetailTabs } from './CaseDetailTabs.tsx';
import { CaseInfoPanel } from './CaseInfoPanel.tsx';
import { FilteredSearchBar } from './FilteredSearchBar.tsx';
import { useCase } from './case-detail.queries.ts';
import { caseDetailSubPath, readCaseDetailPath, type CaseDetailTab } from './case-detail-tabs.ts';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';

function LoadingCase() {
  return (
    <Stack gap="lg" data-testid="case-detail-loading" aria-busy>
      <Skeleton height={72} radius="lg" />
      <Skeleton height={40} radius="md" />
      <Skeleton height={320} radius="lg" />
    </Stack>
  );
}

/** /cases/{caseId}[/edit|/images|/attachments|/comments|/permissions]: one case with its tabs. */
export function CaseDetailPage() {
  const { t } = useTranslation();
  const { caseId = '', '*': subPath } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [infoOpen, info] = useDisclosure(true);
  const found = useCase(caseId);
  const place = readCaseDetailPath(subPath);
  const navigation = readCaseNavigation(new URLSearchParams(location.search));

  if (!place) return <NotFoundPage />;
  if (found.isPending) return <LoadingCase />;
  // The server answers 404 for a case the caller may not see, as for one that does not exist.
  if (found.isError && found.error instanceof AuthError) return <NotFoundPage />;
  if (found.isError) {
    return (
      <LoadErrorAlert
        title={t('caseDetail.loadFailed')}
        error={found.error}
        retryLabel={t('caseDetail.retry')}
        onRetry={() => found.refetch()}
        testId="case-detail-error"
      />
    );
  }

  const item = found.data;
  const hrefOf = (tab: CaseDetailTab, editing = false) =>
    `/cases/${encodeURIComponent(item.id)}${caseDetailSubPath(tab, editing)}${location.search}`;

  return (
    <Stack gap="lg" data-testid="case-detail">
      <CaseDetailHeader
        item={item}
        navigation={navigation}
        subPath={caseDetailSubPath(place.tab, place.editing)}
        editing={place.editing}
        infoOpen={infoOpen}
        onToggleInfo={info.toggle}
      />
      {navigation && hasFilters(navigation.from) && <FilteredSearchBar search={navigation.from} />}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl2: infoOpen ? 8 : 12 }}>
          <CaseDetailTabs
            item={item}
            place={place}
            onTab={(tab) => void navigate(hrefOf(tab))}
            onEdit={(editing) => void navigate(hrefOf('details', editing), { replace: !editing })}
          />
        </Grid.Col>
        {infoOpen && (
          <Grid.Col span={{ base: 12, xl2: 4 }}>
            <CaseInfoPanel item={item} />
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}
