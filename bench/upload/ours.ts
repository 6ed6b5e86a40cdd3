import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client.ts';
import type { EmbeddedServer } from '../../apps/server/src/db/embedded.ts';
import { images } from '../../apps/server/src/db/schema/index.ts';
import { factories } from '../../apps/server/test/factories.ts';
import { freePort } from '../../apps/server/test/free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '../../apps/server/test/server-process.ts';
import type { TokenIssuer } from '../../apps/server/test/token-issuer.ts';
import { CpuMeter } from '../support/upload-probes.ts';
import type { OursTarget } from './curl.ts';

const AUDIENCE = 'bench';
const SAMPLE_MS = 50;

/** Samples VmRSS of a process and keeps the peak. */
class RssSampler {
  peakKb = 0;
  #timer: NodeJS.Timeout | undefined;
  constructor(private readonly pid: number) {}

  async read(): Promise<number> {
    const status = await fs.readFile(`/proc/${this.pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  }

  start(): void {
    this.peakKb = 0;
    this.#timer = setInterval(() => {
      this.read()
        .then((rssKb) => (this.peakKb = Math.max(this.peakKb, rssKb)))
        .catch(() => {});
    }, SAMPLE_MS);
  }

  async stop(): Promise<number> {
    clearInterval(this.#timer);
    this.peakKb = Math.max(this.peakKb, await this.read());
    return this.peakKb;
  }
}

export interface Services {
  postgres: EmbeddedServer;
  issuer: TokenIssuer;
  database: Database;
  root: string;
}

export interface Probe {
  /** The api process's peak RSS (MiB) and CPU seconds since the probe started, with the machine's busy seconds. */
  stop(): Promise<{ peakRssMb: number; cpu: { receiver: number; machineBusy: number } }>;
}

export interface Ours {
  server: ServerProcess;
  target: OursTarget;
  token: string;
  probe(): Promise<Probe>;
  /** Fails unless the image was recorded with `size` bytes, then deletes it (the disk does not fill over runs). */
  checkAndDelete(imageId: string, size: number): Promise<void>;
  stop(): Promise<unknown>;
}

/**
 * The built server as `npm start --role api` runs it (`dist/main.js`), on `storage` (the filesystem under its
 * DATA_DIR unless S3 settings are given), with a case and a member who may upload into it.
 */
export async function startOurs(services: Services, storage: Record<string, string>, label: string): Promise<Ours> {
  const port = await freePort();
  const server = startServerProcess(
    {
      DATABASE_URL: services.postgres.url,
      DATA_DIR: path.join(services.root, `data-${label}`),
      PORT: String(port),
      HOST: '127.0.0.1',
      OIDC_ISSUER: services.issuer.issuer,
      OIDC_CLIENT_ID: AUDIENCE,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...storage,
    },
    ['--role', 'api'],
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(base, server);
  const make = factories(services.database.db);
  const group = await make.organization();
  const caseId = await make.case({ ownerOrganizationId: group, caseNumber: `BENCH-${label}` });
  const subject = `bench-uploader-${label}`;
  await make.join(await make.account({ subject }), group, 'member');
  const token = await services.issuer.token(subject, AUDIENCE);
  const target: OursTarget = { base, auth: `Bearer ${token}`, caseId };
  const pid = server.child.pid!;
  return {
    server,
    target,
    token,
    async probe() {
      const sampler = new RssSampler(pid);
      const meter = new CpuMeter(async () => [pid]);
      sampler.start();
      await meter.start();
      return {
        async stop() {
          const { processes, machineBusy } = await meter.stop();
          return { peakRssMb: (await sampler.stop()) / 1024, cpu: { receiver: processes, machineBusy } };
        },
      };
    },
    async checkAndDelete(imageId, size) {
      const [row] = await services.database.db.select({ size: images.size }).from(images).where(eq(images.id, imageId));
      if (row?.size !== size) throw new Error(`image ${imageId}: recorded ${row?.size} of ${size} bytes`);
      const response = await fetch(`${base}/api/v1/images/${imageId}`, {
        method: 'DELETE',
        headers: { authorization: target.auth },
      });
      if (!response.ok) throw new Error(`DELETE images/${imageId}: HTTP ${response.status} ${await response.text()}`);
    },
    stop: () => server.stop(),
  };
}
