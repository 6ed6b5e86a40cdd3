import type { ComponentType } from 'react';
import { Outlet, createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullPageMessage } from '../components/FullPageMessage.tsx';
import { NotFoundPage } from '../components/NotFoundPage.tsx';
import { AUTH_PATHS, LOGOUT_PATH } from './auth/auth-paths.ts';
import { LogoutPage } from './auth/LogoutPage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { RequireRole } from './auth/RequireRole.tsx';
import { SignedOutPage } from './auth/SignedOutPage.tsx';
import { SigninCallbackPage } from './auth/SigninCallbackPage.tsx';
import { RouteErrorPage } from './errors/RouteErrorPage.tsx';
import { AppLayout } from './layout/AppLayout.tsx';

export const HOME_PATH = '/organizations';

/*
 * Screens are split into chunks of their own and loaded on first visit. After a deployment an open page may ask for
 * a chunk that is gone: the error element then shows the reload prompt (UpdateFallbackPage).
 * A screen for some roles only is wrapped in <RequireRole> with the check of the menu table: others see the not-found page.
 */
/** A screen for super users only (others see the not-found page); the server checks every call again. */
function superUserScreen(path: string, load: () => Promise<ComponentType>): RouteObject {
  return {
    path,
    lazy: async () => {
      const Screen = await load();
      return {
        Component: () => (
          <RequireRole check="isSuperUser">
            <Screen />
          </RequireRole>
        ),
      };
    },
  };
}

const screens: RouteObject[] = [
  { index: true, element: <Navigate to={HOME_PATH} replace /> },
  {
    path: 'organizations',
    lazy: async () => ({
      Component: (await import('../features/organizations/OrganizationsPage.tsx')).OrganizationsPage,
    }),
  },
  {
    path: 'organizations/:organizationId',
    lazy: async () => ({
      Component: (await import('../features/organizations/OrganizationPage.tsx')).OrganizationPage,
    }),
  },
  {
    path: 'cases',
    lazy: async () => ({ Component: (await import('../features/case-list/CaseListPage.tsx')).CaseListPage }),
  },
  {
    path: 'notices',
    lazy: async () => ({ Component: (await import('../features/notices/NoticesPage.tsx')).NoticesPage }),
  },
  {
    path: 'notices/:noticeId',
    lazy: async () => ({ Component: (await import('../features/notices/NoticeDetailPage.tsx')).NoticeDetailPage }),
  },
  {
    path: 'mentions',
    lazy: async () => ({ Component: (await import('../features/notices/MentionsPage.tsx')).MentionsPage }),
  },
  superUserScreen(
    'notices/posts',
    async () => (await import('../features/notices/NoticePostsPage.tsx')).NoticePostsPage,
  ),
  superUserScreen(
    'notices/posts/new',
    async () => (await import('../features/notices/NoticeFormPage.tsx')).NoticeFormPage,
  ),
  superUserScreen(
    'notices/posts/:noticeId',
    async () => (await import('../features/notices/NoticePostPage.tsx')).NoticePostPage,
  ),
  superUserScreen(
    'notices/posts/:noticeId/edit',
    async () => (await import('../features/notices/NoticeFormPage.tsx')).NoticeFormPage,
  ),
  superUserScreen('import-csv', async () => (await import('../features/csv-import/ImportCsvPage.tsx')).ImportCsvPage),
  superUserScreen('export-csv', async () => (await import('../features/csv-import/ExportCsvPage.tsx')).ExportCsvPage),
  {
    path: 'users',
    lazy: async () => {
      const { UsersPage } = await import('../features/users/UsersPage.tsx');
      return {
        Component: () => (
          <RequireRole check="isAdministrator">
            <UsersPage />
          </RequireRole>
        ),
      };
    },
  },
  {
    path: 'contracts',
    lazy: async () => {
      const { ContractsPage } = await import('../features/contracts/ContractsPage.tsx');
      return {
        Component: () => (
          <RequireRole check={['isProprietor', 'canCreateContract']}>
            <ContractsPage />
          </RequireRole>
        ),
      };
    },
  },
  superUserScreen('feature-list', async () => (await import('../features/system/FeatureListPage.tsx')).FeatureListPage),
  superUserScreen('outbox', async () => (await import('../features/users/OutboxPage.tsx')).OutboxPage),
  {
    path: 'cases/transfer',
    lazy: async () => {
      const { CaseTransferPage } = await import('../features/case-list/CaseTransferPage.tsx');
      return {
        Component: () => (
          <RequireRole check="isAdministrator">
            <CaseTransferPage />
          </RequireRole>
        ),
      };
    },
  },
  {
    path: 'cases/new',
    lazy: async () => ({ Component: (await import('../features/case-detail/CreateCasePage.tsx')).CreateCasePage }),
  },
  {
    // More specific than the splat below, so React Router ranks it first wherever it is listed.
    path: 'cases/:caseId/attachments/:filename/:attachmentId',
    lazy: async () => ({ Component: (await import('../features/attachments/PdfPreviewPage.tsx')).PdfPreviewPage }),
  },
  // The image viewer (spec part 2 §2): more specific than the splat below, so ranked first. v2 is the default
  // version; v1 (classic, no side panel) lives under …/v1; /viewer/ sends to the version the user prefers.
  {
    path: 'cases/:caseId/images/:imageId',
    lazy: async () => ({ Component: (await import('../features/viewer/ViewerPage.tsx')).ViewerV2Page }),
  },
  {
    path: 'cases/:caseId/view/:imageId',
    lazy: async () => ({ Component: (await import('../features/viewer/ViewerPage.tsx')).ViewerV2Page }),
  },
  {
    path: 'cases/:caseId/images/:imageId/v1',
    lazy: async () => ({ Component: (await import('../features/viewer/ViewerPage.tsx')).ViewerV1Page }),
  },
  {
    path: 'cases/:caseId/viewer/:imageId',
    lazy: async () => ({ Component: (await import('../features/viewer/ViewerRedirect.tsx')).ViewerRedirect }),
  },
  {
    path: 'compare',
    lazy: async () => ({ Component: (await import('../features/compare/ComparePage.tsx')).ComparePage }),
  },
  {
    path: 'cases/:caseId/*',
    lazy: async () => ({ Component: (await import('../features/case-detail/CaseDetailPage.tsx')).CaseDetailPage }),
  },
  {
    path: 'bulk-upload',
    lazy: async () => {
      const { BulkUploadPage } = await import('../features/bulk-upload/BulkUploadPage.tsx');
      return {
        Component: () => (
          <RequireRole check="isMember">
            <BulkUploadPage />
          </RequireRole>
        ),
      };
    },
  },
  {
    path: 'my-account',
    lazy: async () => ({ Component: (await import('../features/account/MyAccountPage.tsx')).MyAccountPage }),
  },
  { path: '*', element: <NotFoundPage /> },
];

function SignedInLayout() {
  return (
    <RequireAuth>
      <AppLayout />
    </RequireAuth>
  );
}

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <FullPageMessage loading />,
      children: [
        // The provider's return addresses: public, since the user is not signed in (yet, or any more) there.
        { path: AUTH_PATHS.callback, element: <SigninCallbackPage /> },
        { path: AUTH_PATHS.signedOut, element: <SignedOutPage /> },
        { path: LOGOUT_PATH, element: <LogoutPage /> },
        {
          element: <SignedInLayout />,
          children: screens,
        },
      ],
    },
  ]);
}
