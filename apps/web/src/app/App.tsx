import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './AppProviders.tsx';
import { AuthRoot } from './auth/AuthRoot.tsx';
import { createQueryClient } from './query-client.ts';
import { createRouter } from './router.tsx';

function Routes() {
  const [router] = useState(createRouter);
  return <RouterProvider router={router} />;
}

export function App() {
  // Created once per mount rather than at import time, so tests and future SSR get fresh instances.
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders queryClient={queryClient}>
      <AuthRoot>
        <Routes />
      </AuthRoot>
    </AppProviders>
  );
}
