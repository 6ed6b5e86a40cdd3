import { inject } from 'vitest';
import type { RestartKind } from './app-server.ts';

/** False when the journeys drive an app started elsewhere (E2E_BASE_URL), whose process they cannot restart. */
export function canRestartAppServer(): boolean {
  return inject('appControlURL') !== null;
}

/** Restarts the app's server process on the same port and data; resolves once it is healthy again. */
export async function restartAppServer(how: RestartKind): Promise<void> {
  const control = inject('appControlURL');
  if (control === null) throw new Error('the app was started elsewhere (E2E_BASE_URL): it cannot be restarted');
  const response = await fetch(`${control}/restart?how=${how}`, { method: 'POST' });
  if (response.status !== 204) throw new Error(`restarting the app server failed: ${await response.text()}`);
}
