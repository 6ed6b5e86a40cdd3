import { Navigate, useLocation, useParams } from 'react-router';
import { viewerPath } from './viewer-paths.ts';
import { readPreference } from './viewer-preferences.ts';

/** /cases/{caseId}/viewer/{imageId}: sends to the viewer version the user prefers (viewerVersion, default v2). */
export function ViewerRedirect() {
  const { caseId = '', imageId = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={viewerPath(caseId, imageId, readPreference('viewerVersion'), search)} replace />;
}
