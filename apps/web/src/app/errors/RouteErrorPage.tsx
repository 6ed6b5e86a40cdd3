import { useRouteError } from 'react-router';
import { ErrorPage } from './ErrorPage.tsx';

/** The router's error element: a screen failed to render or its code could not be loaded. */
export function RouteErrorPage() {
  return <ErrorPage error={useRouteError()} />;
}
