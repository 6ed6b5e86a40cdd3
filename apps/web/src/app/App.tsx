import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './AppProviders.tsx';
import { createQueryClient } from './query-client.ts';
import { createRouter } from './router.tsx';

export function App() {
  // Created once per mount rather than at import time, so tests and future SSR get fresh instances.
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
