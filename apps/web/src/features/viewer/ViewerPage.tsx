import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { AuthError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { AddToCompare } from '../compare/AddToCompare.tsx';
import { useCaseImages } from '../case-images/case-images.queries.ts';
import { useCase } from '../case-detail/case-detail.queries.ts';
import { SlideMenu } from './SlideMenu.tsx';
import { SlideView } from './SlideView.tsx';
import { useExpandedView } from './useExpandedView.ts';
import { useLocalPreference } from './useLocalPreference.ts';
import { useViewerImage } from './viewer.queries.ts';
import { ViewerFrame } from './ViewerFrame.tsx';
import { ViewerMessage } from './ViewerMessage.tsx';
import { caseImagesPath, imageNeighbours, viewerPath } from './viewer-paths.ts';
import type { ViewerVersion } from './viewer-preferences.ts';
import { ViewerTopBar } from './ViewerTopBar.tsx';

/**
 * The image viewer (spec part 2 §2): v2 at /cases/{caseId}/images/{imageId} and /cases/{caseId}/view/{imageId},
 * the classic v1 (no side panel) at /cases/{caseId}/images/{imageId}/v1. Fills the app's content area.
 */
export function ViewerPage({ version }: { version: ViewerVersion }) {
  const { t } = useTranslation();
  const { caseId = '', imageId = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { expanded, toggle } = useExpandedView();
  const [, setPreferredVersion] = useLocalPreference('viewerVersion');
  const image = useViewerImage(imageId);
  const caseItem = useCase(caseId);
  const caseImages = useCaseImages(caseId);

  const backHref = caseImagesPath(caseId, search);
  const neighbours = imageNeighbours(caseImages.data ?? [], imageId);
  const hrefOf = (target: { id: string } | undefined) => target && viewerPath(caseId, target.id, version, search);
  const previousHref = hrefOf(neighbours.previous);
  const nextHref = hrefOf(neighbours.next);

  const chooseVersion = (next: ViewerVersion) => {
    setPreferredVersion(next);
    if (next !== version) void navigate(viewerPath(caseId, imageId, next, search), { replace: true });
  };

  const body = () => {
    if (image.isPending) return <ViewerMessage loading title={t('viewer.loading')} testId="viewer-loading" />;
    if (image.isError) {
      // 404: no such image, or one the caller may not see (the server does not tell them apart).
      if (image.error instanceof AuthError) {
        return (
          <ViewerMessage
            title={t('viewer.notFound.title')}
            description={t('viewer.notFound.description')}
            backHref={backHref}
            testId="viewer-not-found"
          />
        );
      }
      return (
        <ViewerMessage
          title={t('viewer.loadFailed')}
          description={errorText(image.error, t)}
          onRetry={() => void image.refetch()}
          backHref={backHref}
          testId="viewer-error"
        />
      );
    }
    const found = image.data;
    if (found.caseId !== caseId) {
      return (
        <ViewerMessage
          title={t('viewer.notFound.title')}
          description={t('viewer.notFound.description')}
          backHref={backHref}
          testId="viewer-not-found"
        />
      );
    }
    // A slide served from its original opens while it converts (and after a failed conversion, with a badge).
    if (!found.viewable || found.imageLayerResources.length === 0) {
      const failed = found.status === 'process_failed' || found.status === 'upload_failed';
      return (
        <ViewerMessage
          title={t('viewer.notAvailable.title')}
          description={t(failed ? 'viewer.notAvailable.failed' : 'viewer.notAvailable.description', {
            status: t(`caseList.imageStatus.${found.status}`),
          })}
          loading={!failed}
          backHref={backHref}
          testId="viewer-not-available"
        />
      );
    }
    return (
      <SlideView
        key={found.id}
        image={found}
        caseItem={caseItem.data}
        version={version}
        expanded={expanded}
        onToggleExpanded={toggle}
        onPrevious={previousHref ? () => void navigate(previousHref) : undefined}
        onNext={nextHref ? () => void navigate(nextHref) : undefined}
        backHref={backHref}
      />
    );
  };

  return (
    <ViewerFrame expanded={expanded}>
      <ViewerTopBar
        backHref={backHref}
        title={image.data?.displayName}
        caseNumber={caseItem.data?.caseNumber}
        neighbours={
          // Only for an image of the list: a missing or unavailable one has no place among its neighbours.
          caseImages.data && neighbours.position > 0
            ? { previous: previousHref, next: nextHref, position: neighbours.position, total: neighbours.total }
            : undefined
        }
        version={version}
        onVersion={chooseVersion}
        onRetry={
          caseItem.isError || caseImages.isError
            ? () => {
                if (caseItem.isError) void caseItem.refetch();
                if (caseImages.isError) void caseImages.refetch();
              }
            : undefined
        }
        actions={
          image.data?.caseId === caseId && (
            <>
              {image.data.viewable && <AddToCompare imageId={imageId} caseImages={caseImages.data ?? []} />}
              <SlideMenu image={image.data} canExport={caseItem.data?.userCapabilities.canDownloadDrawings ?? false} />
            </>
          )
        }
      />
      {body()}
    </ViewerFrame>
  );
}

export function ViewerV2Page() {
  return <ViewerPage version="v2" />;
}

export function ViewerV1Page() {
  return <ViewerPage version="v1" />;
}
