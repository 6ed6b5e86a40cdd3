import { setTimeout as sleep } from 'node:timers/promises';
import { tokenForProcess } from '../../apps/server/test/process-token.ts';
import { TUS_RETRY_DELAYS, TUS_RETRY_STATUSES } from '../../apps/web/src/features/uploads/tus-settings.ts';
import type { Kind, Recorder } from './stats.ts';

/** Longer than any answer the goals allow by far: a request that never ends counts as no answer. */
const REQUEST_TIMEOUT_MS = 120_000;
/** Tokens of the built-in provider last 10 minutes; signed again well before. */
const TOKEN_REFRESH_MS = 4 * 60_000;
/** Signing reads the key from PostgreSQL, which may hang rather than fail while it restarts. */
const SIGNING_TIMEOUT_MS = 5_000;

/** A bearer token for one account, signed again now and then with the provider's key (kept in the database). */
export class TokenSource {
  #token = '';
  #signedAt = 0;
  constructor(
    private readonly databaseUrl: string,
    private readonly baseUrl: string,
    readonly email: string,
  ) {}

  async header(): Promise<string> {
    if (Date.now() - this.#signedAt > TOKEN_REFRESH_MS) {
      // While the server (and its PostgreSQL) restarts, the token in hand is still good for minutes.
      const token = await Promise.race([
        tokenForProcess(this.databaseUrl, this.baseUrl, this.email),
        sleep(SIGNING_TIMEOUT_MS).then(() => null),
      ]).catch(() => null);
      if (token != null) [this.#token, this.#signedAt] = [token, Date.now()];
      else if (this.#token === '') throw new Error(`no token for ${this.email}: the database is not reachable`);
    }
    return `Bearer ${this.#token}`;
  }
}

export interface Answer {
  status: number;
  text: string;
  json<T>(): T;
}

/** Calls to the server as one account, each timed into the recorder under its kind. */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly tokens: TokenSource,
    private readonly recorder: Recorder,
  ) {}

  async call(
    kind: Kind,
    method: string,
    path: string,
    options: { body?: RequestInit['body']; type?: string; binary?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { authorization: await this.tokens.header() };
    if (options.type != null) headers['content-type'] = options.type;
    const started = performance.now();
    const ticket = Symbol(path);
    this.recorder.inFlight.set(ticket, { path: `${method} ${path}`, since: Date.now() });
    let status = 0;
    let text = '';
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        ...(options.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      });
      if (options.binary) await response.arrayBuffer();
      else text = await response.text();
      status = response.status;
    } catch {
      status = 0;
    }
    this.recorder.inFlight.delete(ticket);
    this.recorder.record({ kind, method, path, status, ms: performance.now() - started, at: Date.now() });
    return { status, text, json: <T>() => JSON.parse(text) as T };
  }

  /** A JSON body, as the web app sends it. */
  send(kind: Kind, method: string, path: string, body: unknown): Promise<Answer> {
    return this.call(kind, method, path, {
      body: JSON.stringify(body),
      type: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
  }
}

/** Worth repeating as the web app does: no answer, a gateway or a server on its way down or up. */
export const mayPassLater = (status: number): boolean => TUS_RETRY_STATUSES.includes(status);

/**
 * Repeats `attempt` after the web app's waits (over 3 minutes in all) while its answer may pass later, unless `stop()`
 * says to give up; returns the last answer.
 */
export async function withRetries(attempt: () => Promise<Answer>, stop: () => boolean = () => false): Promise<Answer> {
  let answer = await attempt();
  for (const delay of TUS_RETRY_DELAYS) {
    if (!mayPassLater(answer.status) || stop()) return answer;
    await sleep(delay);
    answer = await attempt();
  }
  return answer;
}
