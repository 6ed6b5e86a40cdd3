import type { MailSettings } from './modules/mail/mailer.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { MESSAGES, type ChaosSettings } from '@pathology/contract';
import { ChaosSettingError, parseChaos } from './http/chaos.ts';
import { HTTP_PROCESS_ENV } from './http-processes.ts';
import {
  parseStorageUrl,
  StorageUrlError,
  type S3ConnectionOptions,
  type StorageLocation,
} from './storage/create-blob-store.ts';
import { DEFAULT_SCRYPT_N } from './auth/password.ts';
import { DEFAULT_MAX_PIXELS } from './imaging/limits.ts';
import type { LeasePolicy } from './jobs/job-leases.ts';

/**
 * Building a pyramid yields the cores to serving: a pathologist reading tiles from the original while it converts
 * waits for those tiles, not for the pyramid (issue 29).
 */
export const DEFAULT_CONVERSION_NICENESS = 10;

export const ROLES = ['api', 'worker', 'all'] as const;
export type ProcessRole = (typeof ROLES)[number];

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export class ConfigError extends Error {}

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every setting of the server; defaults make `npm start` work with nothing set. SETTINGS_DOC feeds the README table. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default(path.join(repositoryRoot, 'data')),
  DATABASE_URL: z.string().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  SEED_DEMO: booleanText.optional(),
  MAX_CASE_IMAGES: z.coerce.number().int().min(1).default(200),
  // Only a web page: the link is rendered into every page of the app.
  HELP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DETECTIONS_MAX_MB: z.coerce.number().int().min(1).default(2048),
  DETECTIONS_MAX_FEATURES: z.coerce.number().int().min(1).default(3_000_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default(path.join(repositoryRoot, 'apps/web/dist')),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_AUDIENCE: z.string().optional(),
  OIDC_ADMIN_CLAIM: z.string().default('pathology_admin'),
  STORAGE_URL: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: booleanText.optional(),
  CONVERT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(3600),
  CONVERT_MIN_SECONDS: z.coerce.number().int().min(0).default(0),
  CONVERT_HOLD: z.string().optional(),
  CONVERSION_NICENESS: z.coerce.number().int().min(0).max(19).default(DEFAULT_CONVERSION_NICENESS),
  MAX_IMAGE_PIXELS: z.coerce.number().int().min(1).default(DEFAULT_MAX_PIXELS),
  TILE_CACHE_MB: z.coerce.number().int().min(0).default(256),
  HTTP_PROCESSES: z.coerce.number().int().min(1).max(256).default(1),
  TRUST_PROXY: z.string().default('loopback'),
  DICOMWEB_CORS_ORIGINS: z.string().optional(),
  MODELS_DIR: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Pathology slides <no-reply@localhost>'),
  METRICS_TOKEN: z.string().min(16).optional(),
  OPS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(45),
  CHAOS: z.string().optional(),
  PASSWORD_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(2 ** 10)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(DEFAULT_SCRYPT_N),
});

export const SETTINGS_DOC: Record<keyof z.infer<typeof EnvSchema>, string> = {
  PORT: 'Port of the one HTTP server (api, web, IIIF). Default 3000.',
  HOST: 'Interface to listen on. Default 0.0.0.0.',
  PUBLIC_URL: 'Address users reach the app at (links, token issuer). Default http://localhost:PORT.',
  DATA_DIR: 'Folder for the embedded PostgreSQL cluster and stored files. Default ./data.',
  DATABASE_URL:
    'PostgreSQL to use instead of the embedded one, e.g. postgres://user:pw@host:5432/db. Required with --role api or worker.',
  EMBEDDED_PG_PORT: 'Loopback port of the embedded PostgreSQL. Default 54329.',
  SEED_DEMO: 'Create the demo data once on an empty database. Default true with the embedded database, else false.',
  SMTP_URL:
    'Mail server for invitations, e.g. smtps://user:password@mail.example:465. Without it mail is written to DATA_DIR/outbox, readable by super users in the app.',
  MAIL_FROM: 'Sender of the mails. Default "Pathology slides <no-reply@localhost>".',
  MODELS_DIR:
    'Folder of installed AI models: a manifest.json and its .onnx files (see "AI models" below). Default DATA_DIR/models.',
  MAX_CASE_IMAGES: 'Image count of a case above which uploads warn. Default 200.',
  HELP_URL:
    "Your help pages for the app's users, which the header's help icon opens in a new tab. Default: none, and no help icon.",
  DETECTIONS_MAX_MB: 'Largest GeoJSON file of detections one import takes, in MB. Default 2048.',
  DETECTIONS_MAX_FEATURES: 'Most detections one import takes. Default 3000000.',
  WORKER_CONCURRENCY: 'Jobs one worker process runs at once per queue. Default 2.',
  LOG_LEVEL: 'pino log level. Default info.',
  WEB_DIST: 'Folder of the built web app served at /. Default apps/web/dist.',
  OIDC_ISSUER:
    'External OpenID provider (e.g. https://keycloak.example/realms/pathology). Default: the built-in one at PUBLIC_URL/oidc.',
  OIDC_CLIENT_ID: 'Client id of the web app at the OpenID provider. Required with OIDC_ISSUER; default pathology-web.',
  OIDC_AUDIENCE:
    'Audience the access tokens must carry. Default OIDC_CLIENT_ID (PUBLIC_URL/api with the built-in provider).',
  OIDC_ADMIN_CLAIM:
    'Token claim marking a super user (true, "admin", or an array containing "admin"). Default pathology_admin.',
  STORAGE_URL:
    'Where originals, pyramids and attachments are stored: a folder path or file:// URL, or s3://bucket/prefix. Default DATA_DIR/blobs.',
  S3_ENDPOINT:
    'S3-compatible server for an s3:// STORAGE_URL (e.g. http://minio:9000); AWS when unset. Credentials come from the AWS_* variables.',
  S3_FORCE_PATH_STYLE: 'Path-style S3 addressing (endpoint/bucket/key), which MinIO needs. Default false.',
  CONVERT_TIMEOUT_SECONDS:
    'Time limit of one slide conversion; a longer one is stopped and the image fails with -101. Default 3600.',
  CONVERT_MIN_SECONDS:
    'Shortest time the conversion of a slide served from its original takes: a faster one waits before its pyramid replaces the original, for demonstrations and tests of viewing a slide while it converts. Default 0.',
  CONVERT_HOLD:
    "Folder for tests and demonstrations of viewing a slide while it converts: the conversion of a slide served from its original stores its pyramid, then waits until a file named after the image's id appears in this folder before the pyramid replaces the original. Default: none (no wait).",
  CONVERSION_NICENESS:
    "Niceness (0–19) of the vips processes that build pyramids: tiles served from a slide's original while it converts, and every other request, go first; an idle machine still gives the conversion every core. 0 runs them at the server's own priority. Default 10.",
  MAX_IMAGE_PIXELS:
    'Largest image accepted for conversion, in pixels (width × height), read from the file header before any decoding; larger files fail with -100. JPEG and PNG, which are decoded whole, are limited to a fiftieth of it. Default 50000000000 (5·10¹⁰, room for the largest whole slides).',
  TILE_CACHE_MB:
    'Memory for the most recently served slide tiles, per API process, in MiB, and a quarter as much again for detection tiles; 0 turns both caches off. Default 256.',
  HTTP_PROCESSES:
    'Processes serving HTTP on PORT (api, web, IIIF tiles), sharing it through Node cluster; one per core suits a busy tile server. Default 1.',
  TRUST_PROXY:
    'Reverse proxies whose X-Forwarded-For/-Proto/-Host are believed: comma-separated addresses or CIDR ranges (`loopback`, `linklocal`, `uniquelocal` name the usual ones), `true` (every sender: only when nothing reaches the app but through the proxy) or `false`. The client address it yields is what sign-in throttling counts; X-Forwarded-For entries that are no IP address are ignored. Default loopback.',
  DICOMWEB_CORS_ORIGINS:
    'Web origins (comma-separated, e.g. `https://slim.example.org`) whose pages may read the DICOMweb root `/dicomweb` from the browser, as a viewer such as Slim on another host does; the token is still needed. Default: none (no CORS).',
  METRICS_TOKEN:
    'When set (16 characters or more), GET /metrics asks for `Authorization: Bearer <token>`, from any address. Default: GET /metrics on PORT answers only clients on the same machine that connect straight to it (no proxy header), 403 to everyone else.',
  OPS_PORT:
    'Port where a worker process (--role worker) answers /api/v1/health/live, /api/v1/health/ready and /metrics, for probes and Prometheus. Default: none.',
  SHUTDOWN_GRACE_SECONDS:
    'On SIGTERM: time given to requests in flight and running jobs to finish; jobs still running then go back to their queue for another worker. Default 20.',
  JOB_LEASE_SECONDS:
    'A running job whose worker has not been heard from for this long (its process or machine died) is taken back and retried by another worker; workers renew every quarter of it. Default 45.',
  PASSWORD_SCRYPT_N:
    'Cost of the password hashes the built-in sign-in makes (the N of scrypt, a power of two from 1024 to 1048576): each halving halves what a guess at a stolen hash costs, so lower it only for tests. Hashes made with a lower N are remade at their next sign-in. Default 32768.',
  CHAOS:
    'Makes chosen API routes slow and unreliable, to show how the web app recovers: e.g. `delay:200-700,errors:0.05,routes:/api/v1/cases*;/api/v1/images*` waits 200–700 ms and answers 5 % of them 503 (routes: paths with `*`, separated by `;`; default /api/*). Only with the embedded database and its demo data (no DATABASE_URL, SEED_DEMO not false); the server refuses to start otherwise, logs it at start and the web app shows a banner. Default: off.',
};

export interface Config {
  role: ProcessRole;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPgPort: number;
  seedDemo: boolean;
  maxCaseImages: number;
  /** The operator's help pages (HELP_URL); the header shows no help icon without them. */
  helpUrl: string | undefined;
  /** Limits of one import of detections (GeoJSON). */
  detectionImport: { maxBytes: number; maxFeatures: number };
  workerConcurrency: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  webDist: string;
  migrateOnly: boolean;
  oidc: { issuer: string; clientId: string; audience: string; adminClaim: string; builtIn: boolean };
  storage: { location: StorageLocation; s3: S3ConnectionOptions };
  convertTimeoutSeconds: number;
  convertMinSeconds: number;
  /** CONVERT_HOLD: where the release files of held conversions appear; none by default. */
  convertHoldDir: string | undefined;
  conversionNiceness: number;
  maxImagePixels: number;
  tileCacheBytes: number;
  httpProcesses: number;
  /** Fastify's trustProxy: which senders' X-Forwarded-* headers name the client. */
  trustProxy: boolean | string[];
  /** Origins whose pages may call /dicomweb from the browser (DICOMWEB_CORS_ORIGINS); none by default. */
  dicomwebCorsOrigins: string[];
  /** The operator's AI models (MODELS_DIR) and where the built-in ones are written. */
  models: { modelsDir: string; builtinDir: string };
  mail: MailSettings;
  metricsToken: string | undefined;
  opsPort: number | undefined;
  shutdownGraceMs: number;
  /** How soon a dead worker's job is taken back. */
  jobLease: LeasePolicy;
  /** CHAOS: routes made slow and unreliable on purpose; demo installations only. */
  chaos: ChaosSettings | undefined;
  /** PASSWORD_SCRYPT_N: scrypt's cost of new password hashes. */
  passwordScryptN: number;
}

/** Parses the command line and environment; throws ConfigError with a message fit for the operator. */
export function loadConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const role = parseRole(argv);
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid setting ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const e = parsed.data;
  if (role !== 'all') requireSetting(e.DATABASE_URL, 'DATABASE_URL');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const builtIn = e.OIDC_ISSUER == null;
  const clientId = builtIn ? (e.OIDC_CLIENT_ID ?? 'pathology-web') : requireSetting(e.OIDC_CLIENT_ID, 'OIDC_CLIENT_ID');
  const seedDemo = e.SEED_DEMO ?? e.DATABASE_URL == null;
  // Forked HTTP processes are handed the embedded database's URL by the primary, which checked CHAOS already.
  const embedded = e.DATABASE_URL == null || env[HTTP_PROCESS_ENV] === '1';
  return {
    role,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    seedDemo,
    maxCaseImages: e.MAX_CASE_IMAGES,
    helpUrl: e.HELP_URL,
    detectionImport: { maxBytes: e.DETECTIONS_MAX_MB * 1024 * 1024, maxFeatures: e.DETECTIONS_MAX_FEATURES },
    workerConcurrency: e.WORKER_CONCURRENCY,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    migrateOnly: argv.includes('--migrate-only'),
    oidc: {
      issuer: e.OIDC_ISSUER ?? `${publicUrl}/oidc`,
      clientId,
      // The built-in provider issues access tokens for this API as a resource indicator (RFC 8707).
      audience: e.OIDC_AUDIENCE ?? (builtIn ? `${publicUrl}/api` : clientId),
      adminClaim: e.OIDC_ADMIN_CLAIM,
      builtIn,
    },
    storage: {
      location: parseStorage(e.STORAGE_URL ?? path.join(path.resolve(e.DATA_DIR), 'blobs')),
      s3: { endpoint: e.S3_ENDPOINT, forcePathStyle: e.S3_FORCE_PATH_STYLE },
    },
    convertTimeoutSeconds: e.CONVERT_TIMEOUT_SECONDS,
    convertMinSeconds: e.CONVERT_MIN_SECONDS,
    convertHoldDir: e.CONVERT_HOLD == null ? undefined : path.resolve(e.CONVERT_HOLD),
    conversionNiceness: e.CONVERSION_NICENESS,
    maxImagePixels: e.MAX_IMAGE_PIXELS,
    tileCacheBytes: e.TILE_CACHE_MB * 1024 * 1024,
    httpProcesses: e.HTTP_PROCESSES,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    dicomwebCorsOrigins: parseOrigins(e.DICOMWEB_CORS_ORIGINS),
    models: {
      modelsDir: path.resolve(e.MODELS_DIR ?? path.join(e.DATA_DIR, 'models')),
      builtinDir: path.join(path.resolve(e.DATA_DIR), 'builtin-models'),
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: path.join(path.resolve(e.DATA_DIR), 'outbox') },
    metricsToken: e.METRICS_TOKEN,
    opsPort: e.OPS_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    jobLease: { lapseSeconds: e.JOB_LEASE_SECONDS, heartbeatSeconds: e.JOB_LEASE_SECONDS / 4 },
    chaos: e.CHAOS == null ? undefined : parseChaosSetting(e.CHAOS, embedded && seedDemo),
    passwordScryptN: e.PASSWORD_SCRYPT_N,
  };
}

/** Failing requests on purpose is for demonstrations: never on a database that holds real work. */
function parseChaosSetting(value: string, embeddedDemo: boolean): ChaosSettings {
  if (!embeddedDemo) {
    throw new ConfigError(
      'CHAOS only runs on the embedded database with its demo data: unset DATABASE_URL and SEED_DEMO=false, or unset CHAOS',
    );
  }
  try {
    return parseChaos(value);
  } catch (error) {
    if (error instanceof ChaosSettingError) throw new ConfigError(`Invalid setting CHAOS: ${error.message}`);
    throw error;
  }
}

function parseStorage(value: string): StorageLocation {
  try {
    return parseStorageUrl(value);
  } catch (error) {
    if (error instanceof StorageUrlError) throw new ConfigError(error.message);
    throw error;
  }
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function parseTrustProxy(value: string): boolean | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  const entries = value.split(',').map((entry) => entry.trim());
  const invalid = entries.find(
    (entry) => !PROXY_RANGE_NAMES.includes(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry),
  );
  if (invalid != null) throw new ConfigError(`Invalid setting TRUST_PROXY: "${invalid}" is no address or range`);
  return entries;
}

function parseOrigins(value: string | undefined): string[] {
  if (value == null) return [];
  return value.split(',').map((entry) => {
    const trimmed = entry.trim();
    let origin: string;
    try {
      origin = new URL(trimmed).origin;
    } catch {
      throw new ConfigError(`Invalid setting DICOMWEB_CORS_ORIGINS: "${trimmed}" is no origin`);
    }
    if (origin === 'null' || origin !== trimmed.replace(/\/$/, '')) {
      throw new ConfigError(`Invalid setting DICOMWEB_CORS_ORIGINS: "${trimmed}" is no origin (scheme://host[:port])`);
    }
    return origin;
  });
}

function requireSetting<T>(value: T | undefined, name: string): T {
  if (value == null) throw new ConfigError(`${MESSAGES.envRequired}: ${name}`);
  return value;
}

function parseRole(argv: readonly string[]): ProcessRole {
  const index = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (index === -1) return 'all';
  const arg = argv[index] ?? '';
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
  const role = ROLES.find((candidate) => candidate === value);
  if (role == null) throw new ConfigError(`--role must be one of ${ROLES.join(', ')}`);
  return role;
}
