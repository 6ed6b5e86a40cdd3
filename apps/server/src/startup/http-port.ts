import net from 'node:net';

/** PORT is held by another program: the HTTP server cannot listen on it. */
export class HttpPortInUseError extends Error {
  constructor(readonly port: number) {
    super(`PORT ${port} is in use; set PORT to a free port (another program listens on ${port}).`);
  }
}

/**
 * Listens on PORT for a moment, before anything else is started, so a taken port stops the start
 * at once instead of after PostgreSQL, migrations and the worker.
 */
export async function ensureHttpPortFree(port: number, host: string): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    throw asHttpPortError(error, port);
  });
}

/** The listen error of the HTTP server, as HttpPortInUseError when the port is taken. */
export function asHttpPortError(error: unknown, port: number): unknown {
  return (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE' ? new HttpPortInUseError(port) : error;
}
