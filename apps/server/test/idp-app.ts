import { DEFAULT_MAX_CASE_IMAGES } from '@pathology/contract';
import os from 'node:os';
import path from 'node:path';
import { FilesystemBlobStore } from '../src/storage/filesystem-blob-store.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createIdp, type Idp } from '../src/auth/idp/idp.ts';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { freePort } from './free-port.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export const IDP_CLIENT_ID = 'pathology-web';
export const IDP_ADMIN_CLAIM = 'pathology_admin';

export interface IdpAppInstance {
  app: FastifyInstance;
  idp: Idp;
  /** http://127.0.0.1:PORT: the app's public address, where it really listens. */
  publicUrl: string;
  issuer: string;
  audience: string;
}

export interface IdpTestContext extends IdpAppInstance {
  database: TestDatabase;
}

export interface IdpAppOptions {
  demoAccounts?: boolean;
  /** Fastify's trustProxy; by default the production default, a proxy on loopback (so tests can name clients). */
  trustProxy?: boolean | string[];
  /** PASSWORD_SCRYPT_N, for tests that sign in many times but test no hash. */
  scryptN?: number;
}

/**
 * The real app with the built-in OpenID provider, listening on a free port: sign-in flows need
 * real HTTP, redirects and cookies, and the token verifier discovers the keys over HTTP as in
 * production. One database of its own per test file.
 */
export function useIdpTestApp(options: IdpAppOptions = {}): IdpTestContext {
  const context = {} as IdpTestContext;
  beforeAll(async () => {
    context.database = await createTestDatabase();
    Object.assign(context, await startIdpApp(context.database, options));
  });
  afterAll(async () => {
    await context.app?.close();
    await context.database?.close();
  });
  return context;
}

/** One more app instance, e.g. a second api process on the same database; the caller closes its app. */
export async function startIdpApp(database: TestDatabase, options: IdpAppOptions = {}): Promise<IdpAppInstance> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const issuer = `${publicUrl}/oidc`;
  const audience = `${publicUrl}/api`;
  const idp = await createIdp({
    db: database.db,
    publicUrl,
    issuer,
    clientId: IDP_CLIENT_ID,
    audience,
    adminClaim: IDP_ADMIN_CLAIM,
    demoAccounts: options.demoAccounts ?? false,
    scryptN: options.scryptN,
  });
  const app = await buildApp({
    config: {
      role: 'api',
      logLevel: 'silent',
      webDist: '/nonexistent',
      detectionImport: { maxBytes: 1024 * 1024, maxFeatures: 1000 },
      dataDir: os.tmpdir(),
      tileCacheBytes: 0,
      trustProxy: options.trustProxy ?? ['loopback'],
      maxCaseImages: DEFAULT_MAX_CASE_IMAGES,
      // No models: the identity tests never predict.
      models: { builtinDir: '/nonexistent', modelsDir: '/nonexistent' },
      publicUrl,
      mail: { from: 'test@localhost', outboxDir: path.join(os.tmpdir(), `pathology-outbox-${port}`) },
      oidc: { issuer, clientId: IDP_CLIENT_ID, audience, adminClaim: IDP_ADMIN_CLAIM, builtIn: true },
    },
    database,
    // Sign-in tests never store files nor queue jobs.
    blobs: new FilesystemBlobStore(path.join(os.tmpdir(), 'pathology-idp-test-blobs')),
    sendJob: () => Promise.reject(new Error('no job queue in sign-in tests')),
    startJobNow: () => Promise.reject(new Error('no job queue in sign-in tests')),
    queueState: async () => ({}),
    jobAlive: async () => false,
    verifyToken: createTokenVerifier({ issuer, audience, adminClaim: IDP_ADMIN_CLAIM }),
    idp,
    logger: false,
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, idp, publicUrl, issuer, audience };
}

/**
 * A browser as far as sign-in needs one: a cookie jar (one host, so paths and domains are
 * ignored) and redirects handed back to the test, which follows them step by step.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  /** `forwardedFor`: the client address a trusted proxy in front of the app would add. */
  constructor(
    private readonly baseUrl: string,
    private readonly options: { forwardedFor?: string } = {},
  ) {}

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (this.options.forwardedFor != null) headers['x-forwarded-for'] = this.options.forwardedFor;
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    let body: string | undefined;
    if (init.form != null) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(new URL(url, this.baseUrl), {
      method: init.method ?? (body == null ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) this.store(cookie);
    return response;
  }

  /** The absolute address a redirect response points to. */
  location(response: Response): URL {
    const location = response.headers.get('location');
    if (location == null) throw new Error(`expected a redirect, got ${response.status}`);
    return new URL(location, this.baseUrl);
  }

  private store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some((attribute) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute));
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}
