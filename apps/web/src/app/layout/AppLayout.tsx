import { AppShell, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, ScrollRestoration } from 'react-router';
import { UploadToastNavigation } from '../../features/uploads/upload-toast.tsx';
import { SessionExpiryNotice } from '../auth/SessionExpiryNotice.tsx';
import { UpdateNotifier } from '../update-checker/UpdateNotifier.tsx';
import { AppHeader } from './AppHeader.tsx';
import { AppNavbar } from './AppNavbar.tsx';
import { ChaosBanner } from './ChaosBanner.tsx';

export function AppLayout() {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 264, breakpoint: 'md', collapsed: { mobile: !navOpened } }}
      padding={{ base: 'md', md: 'xl' }}
    >
      <AppShell.Header>
        <AppHeader navOpened={navOpened} onToggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppNavbar onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <Container size="xl" px={0}>
          <ChaosBanner />
          <Outlet />
        </Container>
      </AppShell.Main>
      <ScrollRestoration />
      {/* Signed-in pages only: the sign-in redirects and callbacks neither poll for updates nor watch the token. */}
      <UpdateNotifier />
      <UploadToastNavigation />
      <SessionExpiryNotice />
    </AppShell>
  );
}
