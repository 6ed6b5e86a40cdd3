import { DEFAULT_MAX_CASE_IMAGES, type ChaosSettings } from '@pathology/contract';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BlobStore } from '../src/storage/blob-store.ts';
import { FilesystemBlobStore } from '../src/storage/filesystem-blob-store.ts';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createDatabase } from '../src/db/client.ts';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { QUEUE_POLICIES, type QueuePayloads } from '../src/jobs/queues.ts';
import { writeBuiltinModels } from '../src/modules/predictions/model-registry.ts';
import { testModelFolders } from './models.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { TEST_ADMIN_CLAIM, TEST_AUDIENCE, TEST_ISSUER, TestIssuer } from './tokens.ts';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  jobs: JobQueue<QueuePayloads>;
  issuer: TestIssuer;
  blobs: FilesystemBlobStore;
  /** Scratch and blob folder of this app, removed after the file's tests. */
  dataDir: string;
  /** Authorization header of a token for `sub` (created on first use, like a first sign-in). */
  auth(sub: string, options?: { superUser?: boolean }): Promise<{ authorization: string }>;
}

/**
 * The real app on a database of its own (fastify/demo's test helper): built before the file's
 * tests, closed after. Requests go through `app.inject`, so no port is opened. Mail goes to the
 * outbox in `dataDir`, or through `smtpUrl` (asked when the app is built) when given. `webDist` serves a built web app.
 */
export function useTestApp(
  options: {
    smtpUrl?: () => string;
    builtInSignIn?: boolean;
    webDist?: string;
    /** What the app writes blobs through, e.g. a wrapper that makes the storage fail; `t.blobs` stays the real store. */
    wrapBlobs?: (store: FilesystemBlobStore) => BlobStore;
    /**
     * A second API server beside `peer` (declared before it): the same database, queue, token issuer and storage
     * folder, but a data folder, a connection pool and an in-memory state of its own, as another machine has.
     */
    peer?: TestContext;
    /** METRICS_TOKEN. */
    metricsToken?: string;
    /** The operator's help pages (HELP_URL); none by default. */
    helpUrl?: string;
    /** Limits of one import of detections; defaults generous enough for any test file. */
    detectionImport?: { maxBytes: number; maxFeatures: number };
    /** CHAOS: routes made slow and unreliable; off by default. */
    chaos?: ChaosSettings;
    /** DICOMWEB_CORS_ORIGINS; none by default. */
    dicomwebCorsOrigins?: string[];
  } = {},
): TestContext {
  const context = {} as TestContext;
  const { peer } = options;
  beforeAll(async () => {
    context.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-test-data-'));
    if (peer == null) {
      context.database = await createTestDatabase();
      context.blobs = new FilesystemBlobStore(path.join(context.dataDir, 'blobs'));
      context.issuer = await TestIssuer.create();
      context.jobs = new JobQueue<QueuePayloads>({ connectionString: context.database.url, policies: QUEUE_POLICIES });
      await context.jobs.start();
    } else {
      context.database = { ...peer.database, ...createDatabase(peer.database.url, { max: 4 }) };
      context.blobs = peer.blobs;
      context.issuer = peer.issuer;
      context.jobs = peer.jobs;
    }
    await writeBuiltinModels(testModelFolders(context.dataDir).builtinDir);
    context.app = await buildApp({
      config: {
        role: 'all',
        logLevel: process.env.TEST_LOG === '1' ? 'error' : 'silent',
        webDist: options.webDist ?? '/nonexistent',
        dataDir: context.dataDir,
        tileCacheBytes: 64 * 1024 * 1024,
        trustProxy: false,
        maxCaseImages: DEFAULT_MAX_CASE_IMAGES,
        helpUrl: options.helpUrl,
        chaos: options.chaos,
        dicomwebCorsOrigins: options.dicomwebCorsOrigins,
        detectionImport: options.detectionImport ?? { maxBytes: 512 * 1024 * 1024, maxFeatures: 1_000_000 },
        models: testModelFolders(context.dataDir),
        publicUrl: 'http://app.test',
        mail: {
          from: 'Pathology test <no-reply@app.test>',
          outboxDir: path.join(context.dataDir, 'outbox'),
          smtpUrl: options.smtpUrl?.(),
        },
        oidc: {
          issuer: TEST_ISSUER,
          clientId: TEST_AUDIENCE,
          audience: TEST_AUDIENCE,
          adminClaim: TEST_ADMIN_CLAIM,
          builtIn: options.builtInSignIn ?? false,
        },
      },
      database: context.database,
      blobs: options.wrapBlobs?.(context.blobs) ?? context.blobs,
      sendJob: (name, payload, options) => context.jobs.send(name, payload, options),
      startJobNow: (name, id) => context.jobs.startNow(name, id),
      queueState: () => context.jobs.state(context.database.pool),
      jobAlive: (name, match) => context.jobs.alive(name, match),
      verifyToken: createTokenVerifier({
        issuer: TEST_ISSUER,
        audience: TEST_AUDIENCE,
        adminClaim: TEST_ADMIN_CLAIM,
        keys: context.issuer.keys,
      }),
      logger: process.env.TEST_LOG === '1',
      metricsToken: options.metricsToken,
    });
    context.auth = async (sub, options) => ({
      authorization: `Bearer ${await context.issuer.sign({ sub, superUser: options?.superUser })}`,
    });
  });
  afterAll(async () => {
    await context.app?.close();
    if (peer != null) {
      await context.database.close();
      await fs.rm(context.dataDir, { recursive: true, force: true });
      return;
    }
    await context.jobs?.stop();
    await context.database?.close();
    if (context.dataDir != null) await fs.rm(context.dataDir, { recursive: true, force: true });
  });
  return context;
}
