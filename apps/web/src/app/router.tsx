import { createBrowserRouter, Navigate } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage.tsx';
import { CasesPage } from '../features/cases/CasesPage.tsx';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage.tsx';
import { AppLayout } from './layout/AppLayout.tsx';

export const HOME_PATH = '/organizations';

export function createRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        { path: 'organizations', element: <OrganizationsPage /> },
        { path: 'cases', element: <CasesPage /> },
        // After logout the identity provider returns here; the spec sends the user on to the home page.
        { path: 'signed-out', element: <Navigate to="/" replace /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
