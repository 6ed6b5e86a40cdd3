import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppServer, RestartKind } from './app-server.ts';

const RESTART_KINDS: readonly RestartKind[] = ['graceful', 'kill'];

/**
 * A loopback endpoint through which journeys, which run in other processes than the global setup that owns the
 * app's server process, ask for that process to be restarted: `POST /restart?how=graceful|kill` answers 204 once
 * the server is healthy again. Resolves with its URL and its close.
 */
export async function startAppControl(server: AppServer): Promise<{ url: string; close: () => Promise<void> }> {
  const control = http.createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://control').searchParams;
    const how = query.get('how') as RestartKind;
    if (request.method !== 'POST' || !request.url?.startsWith('/restart') || !RESTART_KINDS.includes(how)) {
      response.writeHead(404).end();
      return;
    }
    server.restart(how).then(
      () => response.writeHead(204).end(),
      (error: unknown) => response.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  // A restart (PostgreSQL's recovery after a kill) may take longer than Node's default request timeout.
  control.requestTimeout = 0;
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => control.close(() => resolve())),
  };
}
