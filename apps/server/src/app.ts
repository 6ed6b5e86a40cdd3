import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AccountResolver } from './auth/authenticate.ts';
import { registerAuthentication } from './auth/authenticate.ts';
import type { Idp } from './auth/idp/idp.ts';
import { registerIdp } from './auth/idp/mount.ts';
import type { TokenVerifier } from './auth/token-verifier.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerChaos } from './http/chaos.ts';
import { registerErrorHandler, registerNotFoundHandler } from './http/error-handler.ts';
import { registerForwardedForCleanup } from './http/forwarded-for.ts';
import { registerJsonBodies } from './http/json-body.ts';
import { registerNulCharacterCheck } from './http/nul-characters.ts';
import { registerOpenApi } from './http/openapi.ts';
import { zodSchemaController } from './http/zod-compilers.ts';
import { createSecurityHeaders, registerSecurityHeaders } from './http/security-headers.ts';
import { registerWebApp } from './http/web-app.ts';
import type { QueueStates, SendOptions } from './jobs/job-queue.ts';
import { CONVERSION_FALLBACK_SECONDS, type QueuePayloads } from './jobs/queues.ts';
import { authConfigRoutes } from './auth/auth-config.routes.ts';
import { createAccessRepository, createCapabilitiesService } from './auth/capabilities/index.ts';
import { createAccountRepository } from './modules/accounts/account.repository.ts';
import { accountRoutes } from './modules/accounts/account.routes.ts';
import { createAccountService } from './modules/accounts/account.service.ts';
import { createCaseRepository } from './modules/cases/case.repository.ts';
import { caseRoutes } from './modules/cases/case.routes.ts';
import { createCaseService } from './modules/cases/case.service.ts';
import { caseTransferRoutes } from './modules/cases/case-transfer.routes.ts';
import { createCaseTransferService } from './modules/cases/case-transfer.service.ts';
import { createCaseViews } from './modules/cases/case-view.ts';
import { createColorRepository } from './modules/colors/color.repository.ts';
import { colorRoutes } from './modules/colors/color.routes.ts';
import { createColorService } from './modules/colors/color.service.ts';
import { createCommentRepository } from './modules/comments/comment.repository.ts';
import { commentRoutes } from './modules/comments/comment.routes.ts';
import { createCommentService } from './modules/comments/comment.service.ts';
import { createGrantRepository } from './modules/grants/grant.repository.ts';
import { grantRoutes } from './modules/grants/grant.routes.ts';
import { createGrantService } from './modules/grants/grant.service.ts';
import { createCaseSearchRepository } from './modules/cases/case-search.repository.ts';
import { caseSearchRoutes } from './modules/cases/case-search.routes.ts';
import { createCaseSearchService } from './modules/cases/case-search.service.ts';
import { createLabelRepository } from './modules/labels/label.repository.ts';
import { labelRoutes } from './modules/labels/label.routes.ts';
import { createLabelService } from './modules/labels/label.service.ts';
import { createOrganizationRepository } from './modules/organizations/organization.repository.ts';
import { organizationRoutes } from './modules/organizations/organization.routes.ts';
import { createOrganizationService } from './modules/organizations/organization.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createScreenSettingsRepository } from './modules/settings/screen-settings.repository.ts';
import { screenSettingsRoutes } from './modules/settings/screen-settings.routes.ts';
import { createScreenSettingsService } from './modules/settings/screen-settings.service.ts';
import { createAttachmentRepository } from './modules/attachments/attachment.repository.ts';
import { attachmentRoutes } from './modules/attachments/attachment.routes.ts';
import { createAttachmentService } from './modules/attachments/attachment.service.ts';
import { createBatchUploadRepository } from './modules/batch-upload/batch-upload.repository.ts';
import { batchUploadRoutes } from './modules/batch-upload/batch-upload.routes.ts';
import { createBatchUploadService } from './modules/batch-upload/batch-upload.service.ts';
import { createImageIngest } from './modules/images/image-ingest.ts';
import { imageUploadRoutes } from './modules/images/image-upload.routes.ts';
import { imageRoutes } from './modules/images/image.routes.ts';
import { createImageService } from './modules/images/image.service.ts';
import { createDetectionImportRepository } from './modules/detections/detection-imports.ts';
import { createDetectionRepository } from './modules/detections/detection.repository.ts';
import { detectionRoutes } from './modules/detections/detection.routes.ts';
import { createDrawingDetectionCounts } from './modules/detections/drawing-detections.ts';
import { createDetectionService } from './modules/detections/detection.service.ts';
import { createDrawingDownload } from './modules/drawings/drawing-download.ts';
import { createDrawingRepository } from './modules/drawings/drawing.repository.ts';
import { drawingRoutes } from './modules/drawings/drawing.routes.ts';
import { createDrawingService } from './modules/drawings/drawing.service.ts';
import { createAlignmentRepository } from './modules/alignments/alignment.repository.ts';
import { alignmentRoutes } from './modules/alignments/alignment.routes.ts';
import { createAlignmentService } from './modules/alignments/alignment.service.ts';
import { createImageNoteRepository } from './modules/image-notes/image-note.repository.ts';
import { imageNoteRoutes } from './modules/image-notes/image-note.routes.ts';
import { createImageNoteService } from './modules/image-notes/image-note.service.ts';
import { tusUploadRoutes } from './modules/uploads/tus-uploads.routes.ts';
import type { BlobStore } from './storage/blob-store.ts';
import { cacheCallers } from './auth/caller-cache.ts';
import { iiifRoutes } from './modules/iiif/iiif.routes.ts';
import { createEarlyView } from './modules/images/early-view.ts';
import { createLayerAccess } from './modules/iiif/layer-access.ts';
import { createDicomOriginals } from './modules/iiif/original-dicom-source.ts';
import { createOriginalSource, ORIGINALS_OPEN } from './modules/iiif/original-source.ts';
import { createPyramidCache } from './modules/iiif/pyramid-cache.ts';
import { exportRoutes } from './modules/exports/export.routes.ts';
import { createDicomAccess } from './modules/dicomweb/dicom-access.ts';
import { dicomExportRoutes } from './modules/dicomweb/dicom-export.routes.ts';
import { registerDicomweb } from './modules/dicomweb/dicomweb.ts';
import { mentionRoutes } from './modules/mentions/mention.routes.ts';
import { createNoticeMedia } from './modules/notices/notice-media.ts';
import { createNoticeRepository } from './modules/notices/notice.repository.ts';
import { noticeRoutes } from './modules/notices/notice.routes.ts';
import { createNoticeService } from './modules/notices/notice.service.ts';
import { createModelRegistry } from './modules/predictions/model-registry.ts';
import { createPredictionRepository } from './modules/predictions/prediction.repository.ts';
import { predictionRoutes } from './modules/predictions/prediction.routes.ts';
import { createPredictionService } from './modules/predictions/prediction.service.ts';
import { TILE_ROUTE } from './modules/iiif/tile-answer.ts';
import { createTileCache } from './modules/iiif/tile-cache.ts';
import { createTileLane, tileLaneServer } from './modules/iiif/tile-lane.ts';
import { APP_VERSION } from './version.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { createContractRepository } from './modules/contracts/contract.repository.ts';
import { contractRoutes } from './modules/contracts/contract.routes.ts';
import { createContractService } from './modules/contracts/contract.service.ts';
import { outboxRoutes } from './modules/mail/outbox.routes.ts';
import { invitationPageRoutes } from './modules/memberships/invitation-page.ts';
import { createInvitationService } from './modules/memberships/invitation.service.ts';
import { createMembershipRepository } from './modules/memberships/membership.repository.ts';
import { membershipRoutes } from './modules/memberships/membership.routes.ts';
import { createMembershipService } from './modules/memberships/membership.service.ts';
import { createOrganizationGrantService, organizationGrantRoutes } from './modules/grants/organization-grants.ts';
import path from 'node:path';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { registerMetricsRoute, registerRequestTiming } from './metrics/metrics.routes.ts';
import { isDraining, registerDrainAnswers } from './startup/drain.ts';
import { createReadiness, type Readiness } from './startup/readiness.ts';

export interface AppDeps {
  config: Pick<
    Config,
    | 'role'
    | 'logLevel'
    | 'webDist'
    | 'oidc'
    | 'dataDir'
    | 'tileCacheBytes'
    | 'maxCaseImages'
    | 'detectionImport'
    | 'models'
    | 'publicUrl'
    | 'mail'
    | 'trustProxy'
  > &
    Partial<Pick<Config, 'helpUrl' | 'chaos' | 'dicomwebCorsOrigins'>>;
  database: Database;
  blobs: BlobStore;
  /** Puts a job on a queue and gives its id; the api process only sends, workers run them. */
  sendJob: <Q extends keyof QueuePayloads>(
    name: Q,
    payload: QueuePayloads[Q],
    options?: SendOptions,
  ) => Promise<string>;
  /** Lets workers take at once a job sent to start later. */
  startJobNow: (name: keyof QueuePayloads, id: string) => Promise<void>;
  queueState: () => Promise<QueueStates>;
  /** Whether a job of the queue whose payload contains `match` waits or runs on a live worker. */
  jobAlive: <Q extends keyof QueuePayloads>(name: Q, match: Partial<QueuePayloads[Q]>) => Promise<boolean>;
  verifyToken: TokenVerifier;
  /** The built-in OpenID provider, served under /oidc; absent when an external provider is configured. */
  idp?: Idp;
  /** Whether to take traffic (the readiness probe); an app built without one is ready at once. */
  readiness?: Readiness;
  /** The process's metrics (shared with its job queue); a registry of the app's own when absent. */
  metrics?: Metrics;
  /** Bearer token GET /metrics asks for; when absent, it answers only clients on this machine. */
  metricsToken?: string;
  /** Tests pass false to keep their output clean. */
  logger?: boolean;
}

/**
 * Wires the HTTP server in a fixed order (fastify/demo's layering): Fastify settings and
 * external plugins, then our own plugins (errors, auth), then routes, then the web app.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const tileLane = createTileLane();
  const app = Fastify({
    serverFactory: tileLaneServer(tileLane),
    logger: deps.logger === false ? false : { level: deps.config.logLevel },
    trustProxy: deps.config.trustProxy,
    // Slide uploads stream their bodies and never go through the JSON parser; JSON stays small.
    bodyLimit: 10 * 1024 * 1024,
    // Its bare drain 503 lacks Retry-After: registerDrainAnswers answers instead.
    return503OnClosing: false,
    // Avvio's 10 s per plugin failed a start on a machine loaded by other work (seen at a load average of 25, a
    // plugin that only registers routes): a slow start is better than none, and a real hang still ends.
    pluginTimeout: 120_000,
    schemaController: zodSchemaController,
  }).withTypeProvider<ZodTypeProvider>();
  registerDrainAnswers(app);
  registerForwardedForCleanup(app);

  const securityHeaders = createSecurityHeaders({ publicUrl: deps.config.publicUrl, issuer: deps.config.oidc.issuer });
  registerSecurityHeaders(app, securityHeaders);
  registerOpenApi(app, APP_VERSION);
  registerErrorHandler(app);
  registerJsonBodies(app);
  registerNulCharacterCheck(app);
  const metrics = deps.metrics ?? createMetrics();
  if (deps.config.chaos) registerChaos(app, deps.config.chaos, { failures: metrics.chaosFailures });
  metrics.watchPool('app', deps.database.pool);
  metrics.watchQueues(deps.queueState);
  const watchedCache = (name: string, maxBytes: number, onLookup: (hit: boolean) => void) => {
    const cache = createTileCache(maxBytes, onLookup);
    metrics.watchCache(name, cache, maxBytes);
    return cache;
  };
  registerRequestTiming(app, metrics);
  registerMetricsRoute(app, { metrics, token: deps.metricsToken, localOnly: true });
  const readiness = deps.readiness ?? readyAtOnce();
  if (deps.idp != null) await registerIdp(app, deps.idp);

  const { db, pool } = deps.database;
  const accounts = createAccountRepository(db);
  const resolveAccount: AccountResolver = (token) => accounts.resolveCaller(token);
  const capabilities = createCapabilitiesService(createAccessRepository(db));
  const { blobs } = deps;
  const originalsDir = path.join(deps.config.dataDir, 'cache', 'originals');
  const originals = createOriginalSource(
    createPyramidCache({ blobs, cacheDir: originalsDir, maxOpen: ORIGINALS_OPEN }),
    createDicomOriginals({ blobs, cacheDir: originalsDir, maxOpen: ORIGINALS_OPEN }),
  );
  const earlyView = createEarlyView({ db, originals, log: app.log });
  // A stored upload whose original reads tile by tile is viewable before its conversion starts. The job is queued
  // first, to start on its own after a while: a process that dies while preparing the view loses no conversion.
  const reserveConversion = async (imageId: string) => {
    const jobId = await deps.sendJob('convert', { imageId }, { startAfterSeconds: CONVERSION_FALLBACK_SECONDS });
    return async () => {
      try {
        await earlyView.prepare(imageId);
      } finally {
        await deps.startJobNow('convert', jobId);
      }
    };
  };
  const queueConversion = async (imageId: string) => (await reserveConversion(imageId))();
  const scratchDir = path.join(deps.config.dataDir, 'tmp');
  // One cache of open pyramids for IIIF and DICOM: both read the same tiles of the same files.
  const pyramids = createPyramidCache({ blobs, cacheDir: path.join(deps.config.dataDir, 'cache', 'pyramids') });
  const dicomAccess = createDicomAccess({ db, blobs, pyramids, originals, capabilities });
  const invitations = createInvitationService({
    db,
    mailer: createMailer(deps.config.mail),
    capabilities,
    publicUrl: deps.config.publicUrl,
  });

  await app.register(
    async (api) => {
      registerAuthentication(api, { verifyToken: deps.verifyToken, resolveAccount });
      await api.register(healthRoutes, {
        pool,
        queueState: deps.queueState,
        role: deps.config.role,
        version: APP_VERSION,
        readiness,
      });
      await api.register(authConfigRoutes, {
        oidc: deps.config.oidc,
        maxCaseImages: deps.config.maxCaseImages,
        helpUrl: deps.config.helpUrl,
        chaos: deps.config.chaos,
      });
      await api.register(accountRoutes, { service: createAccountService({ accounts, capabilities }) });
      await api.register(organizationRoutes, {
        service: createOrganizationService({
          db,
          organizations: createOrganizationRepository(db),
          capabilities,
          blobs,
          accounts,
        }),
      });
      await api.register(caseSearchRoutes, {
        service: createCaseSearchService({ repository: createCaseSearchRepository(db), capabilities }),
      });
      const cases = createCaseRepository(db);
      const caseViews = createCaseViews({ cases, capabilities });
      await api.register(caseRoutes, { service: createCaseService({ cases, views: caseViews, capabilities, blobs }) });
      await api.register(caseTransferRoutes, {
        service: createCaseTransferService({
          cases,
          organizations: createOrganizationRepository(db),
          views: caseViews,
          capabilities,
        }),
      });
      await api.register(commentRoutes, {
        service: createCommentService({ comments: createCommentRepository(db), capabilities }),
      });
      const grants = createGrantRepository(db);
      await api.register(grantRoutes, { service: createGrantService({ grants, capabilities }) });
      await api.register(organizationGrantRoutes, {
        service: createOrganizationGrantService({ grants, capabilities }),
      });
      await api.register(membershipRoutes, {
        service: createMembershipService({ memberships: createMembershipRepository(db), capabilities }),
        invitations,
      });
      await api.register(contractRoutes, {
        service: createContractService({ contracts: createContractRepository(db), capabilities }),
      });
      await api.register(outboxRoutes, { outboxDir: deps.config.mail.outboxDir, capabilities });
      await api.register(labelRoutes, {
        service: createLabelService({ labels: createLabelRepository(db), capabilities }),
      });
      const ingest = createImageIngest({ db, blobs, capabilities, reserveConversion, scratchDir });
      await api.register(imageUploadRoutes, { ingest });
      await api.register(imageRoutes, {
        service: createImageService({
          db,
          blobs,
          capabilities,
          queueConversion,
          conversionAlive: (imageId) => deps.jobAlive('convert', { imageId }),
          earlyThumbnail: (imageId) => earlyView.thumbnail(imageId),
        }),
      });
      await api.register(tusUploadRoutes, { ingest, blobs, pool, dataDir: deps.config.dataDir });
      await api.register(screenSettingsRoutes, {
        service: createScreenSettingsService(createScreenSettingsRepository(db)),
      });
      await api.register(attachmentRoutes, {
        service: createAttachmentService({ attachments: createAttachmentRepository(db), blobs, capabilities }),
      });
      await api.register(batchUploadRoutes, {
        service: createBatchUploadService({ repository: createBatchUploadRepository(db), capabilities }),
      });
      const drawings = createDrawingRepository(db);
      const detections = createDetectionRepository(db);
      await api.register(drawingRoutes, {
        service: createDrawingService({ drawings, capabilities }),
        download: createDrawingDownload({
          drawings,
          capabilities,
          detectionCounts: createDrawingDetectionCounts(detections),
        }),
      });
      await api.register(detectionRoutes, {
        service: createDetectionService({
          detections,
          imports: createDetectionImportRepository(db),
          blobs,
          queueImport: (importId) => deps.sendJob('detection-import', { importId }),
          drawings,
          capabilities,
          limits: deps.config.detectionImport,
          tiles: watchedCache('detection_tiles', deps.config.tileCacheBytes / 4, (hit) =>
            metrics.detectionTileCacheLookups.inc({ result: hit ? 'hit' : 'miss' }),
          ),
        }),
      });
      await api.register(imageNoteRoutes, {
        service: createImageNoteService({ notes: createImageNoteRepository(db), capabilities }),
      });
      await api.register(alignmentRoutes, {
        service: createAlignmentService({ alignments: createAlignmentRepository(db), capabilities }),
      });
      await api.register(predictionRoutes, {
        service: createPredictionService({
          predictions: createPredictionRepository(db),
          capabilities,
          models: createModelRegistry(deps.config.models),
          queuePrediction: async (predictionId) => void (await deps.sendJob('predict', { predictionId })),
          predictionAlive: (predictionId) => deps.jobAlive('predict', { predictionId }),
        }),
      });
      await api.register(exportRoutes, { pool, capabilities });
      await api.register(dicomExportRoutes, { access: dicomAccess });
      const notices = createNoticeRepository(db);
      await api.register(noticeRoutes, {
        service: createNoticeService({ db, notices, capabilities }),
        media: createNoticeMedia({ notices, blobs, capabilities }),
      });
      await api.register(mentionRoutes, { db });
      await api.register(colorRoutes, {
        service: createColorService({ colors: createColorRepository(db), capabilities }),
      });
    },
    { prefix: '/api/v1' },
  );

  const callers = cacheCallers(deps.verifyToken, resolveAccount);
  await registerDicomweb(app, {
    db,
    access: dicomAccess,
    callers,
    corsOrigins: deps.config.dicomwebCorsOrigins ?? [],
  });

  await app.register(async (iiif) => {
    registerAuthentication(iiif, callers);
    const layers = createLayerAccess({ db, capabilities });
    // Series found once, not by their labels at each of the thousands of tiles a second.
    const [hits, misses] = [metrics.tileCacheLookups.labels('hit'), metrics.tileCacheLookups.labels('miss')];
    const laneSeries = new Map<number, { observe(seconds: number): void }>();
    const tiles = watchedCache('tiles', deps.config.tileCacheBytes, (hit) => (hit ? hits : misses).inc());
    await iiif.register(iiifRoutes, { layers, pyramids, originals, tiles });
    // CHAOS delays and fails requests in Fastify's hooks: every tile goes through them while it is on.
    if (deps.config.chaos == null) {
      tileLane.open({
        callers,
        layers,
        sources: { pyramids, tiles },
        headers: securityHeaders,
        draining: () => isDraining(app),
        answered(status, seconds) {
          // Each status's series found once: finding it by its labels costs as much as the rest of the answer.
          let series = laneSeries.get(status);
          if (series == null) {
            series = metrics.httpDuration.labels({ method: 'GET', route: TILE_ROUTE, status_code: status });
            laneSeries.set(status, series);
          }
          series.observe(seconds);
          metrics.tileLaneAnswers.inc();
        },
      });
    }
  });

  await app.register(async (pages) =>
    invitationPageRoutes(pages, {
      invitations,
      builtInSignIn: deps.config.oidc.builtIn,
      appUrl: deps.config.publicUrl,
    }),
  );

  const spaFallback = await registerWebApp(app, deps.config.webDist);
  registerNotFoundHandler(app, { spaFallback });
  return app;
}

function readyAtOnce(): Readiness {
  const readiness = createReadiness();
  readiness.markReady();
  return readiness;
}
