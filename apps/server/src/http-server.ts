import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { createIdp } from './auth/idp/idp.ts';
import { createTokenVerifier } from './auth/token-verifier.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { QueuePayloads } from './jobs/queues.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Readiness } from './startup/readiness.ts';
import type { BlobStore } from './storage/blob-store.ts';

/** The HTTP side of a process (api, web app, IIIF and the built-in OpenID provider), listening on PORT. */
export async function startHttpServer(deps: {
  config: Config;
  database: Database;
  blobs: BlobStore;
  jobs: JobQueue<QueuePayloads>;
  log: Logger;
  readiness: Readiness;
  metrics: Metrics;
}): Promise<FastifyInstance> {
  const { config, database, jobs, log } = deps;
  const idp = config.oidc.builtIn
    ? await createIdp({
        db: database.db,
        publicUrl: config.publicUrl,
        issuer: config.oidc.issuer,
        clientId: config.oidc.clientId,
        audience: config.oidc.audience,
        adminClaim: config.oidc.adminClaim,
        demoAccounts: config.seedDemo,
        scryptN: config.passwordScryptN,
        onError: (error, message) => log.error({ err: error }, message),
      })
    : undefined;
  const app = await buildApp({
    config,
    database,
    blobs: deps.blobs,
    sendJob: (name, payload, options) => jobs.send(name, payload, options),
    startJobNow: (name, id) => jobs.startNow(name, id),
    queueState: () => jobs.state(database.pool),
    jobAlive: (name, match) => jobs.alive(name, match),
    verifyToken: createTokenVerifier({
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      adminClaim: config.oidc.adminClaim,
      // The built-in provider's keys are at hand: no HTTP round trip to our own public address.
      keys: idp?.jwks,
    }),
    idp,
    readiness: deps.readiness,
    metrics: deps.metrics,
    metricsToken: config.metricsToken,
  });
  await app.listen({ port: config.port, host: config.host });
  return app;
}
