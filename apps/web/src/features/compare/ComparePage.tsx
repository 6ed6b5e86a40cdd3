import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuthError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { caseQuery } from '../case-detail/case-detail.queries.ts';
import { useExpandedView } from '../viewer/useExpandedView.ts';
import { viewerImageQuery } from '../viewer/viewer.queries.ts';
import { ViewerFrame } from '../viewer/ViewerFrame.tsx';
import { ViewerMessage } from '../viewer/ViewerMessage.tsx';
import { parseCompareSearch, type CompareState } from './compare-url.ts';
import { CompareTopBar } from './CompareTopBar.tsx';
import { CompareView } from './CompareView.tsx';

/**
 * /compare?images=<id>,<id>[,<id>[,<id>]] (issue 31): the slides side by side. A new set of images starts a new
 * comparison; the other parameters are read once, when it opens.
 */
export function ComparePage() {
  const [search] = useSearchParams();
  const state = parseCompareSearch(search);
  if (!state) return <Invalid />;
  return <CompareLoader key={state.imageIds.join()} initial={state} />;
}

function Invalid() {
  const { t } = useTranslation();
  return (
    <ViewerFrame expanded={false}>
      <CompareTopBar count={0} />
      <ViewerMessage
        title={t('compare.invalid.title')}
        description={t('compare.invalid.description')}
        backHref="/cases"
        testId="compare-invalid"
      />
    </ViewerFrame>
  );
}

/** Loads the images and their cases; 404 for the whole comparison when any image is out of sight. */
function CompareLoader({ initial }: { initial: CompareState }) {
  const { t } = useTranslation();
  const { expanded } = useExpandedView();
  const images = useQueries({ queries: initial.imageIds.map((id) => viewerImageQuery(id)) });
  const cases = useQueries({
    queries: images.map((image) => ({ ...caseQuery(image.data?.caseId ?? ''), enabled: image.data !== undefined })),
  });

  const message = () => {
    const failed = images.find((image) => image.isError);
    if (failed?.error instanceof AuthError) {
      return (
        <ViewerMessage
          title={t('compare.notFound.title')}
          description={t('compare.notFound.description')}
          backHref="/cases"
          testId="compare-not-found"
        />
      );
    }
    if (failed) {
      return (
        <ViewerMessage
          title={t('viewer.loadFailed')}
          description={errorText(failed.error, t)}
          onRetry={() => void failed.refetch()}
          testId="compare-error"
        />
      );
    }
    return <ViewerMessage loading title={t('viewer.loading')} testId="compare-loading" />;
  };

  const loaded = images.flatMap((image) => (image.data ? [image.data] : []));
  if (loaded.length !== images.length) {
    return (
      <ViewerFrame expanded={expanded}>
        <CompareTopBar count={initial.imageIds.length} />
        {message()}
      </ViewerFrame>
    );
  }
  return <CompareView initial={initial} images={loaded} cases={cases.map((item) => item.data)} />;
}
