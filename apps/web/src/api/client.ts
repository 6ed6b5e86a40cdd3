import { HttpError, TimeoutError, UNEXPECTED_ERROR, toApiError } from './errors.ts';

export { AuthError, HttpError, TimeoutError, UNEXPECTED_ERROR, ValidationError } from './errors.ts';

/** Spec part 3 §9: every call gives up after 20 s unless it opts out (case search does). */
export const DEFAULT_TIMEOUT_MS = 20_000;
export const API_BASE_URL = '/api/v1';

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;
export type AccessTokenProvider = () => string | null | undefined | Promise<string | null | undefined>;
/** Anything with a zod-style `parse`, e.g. a schema from `@pathology/contract`. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: Method;
  query?: QueryParams;
  /** Sent as JSON unless it is already a body the browser knows (FormData, Blob, URLSearchParams...). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Cancels the request (TanStack Query passes one); the abort error is rethrown untouched. */
  signal?: AbortSignal;
  /** Milliseconds, or `false` for no limit. */
  timeout?: number | false;
  /** Validates and types the success body. */
  schema?: ResponseParser<T>;
  /**
   * A refresh nobody clicked for (a poll): without a token it is not sent, and a 401 does not start a new sign-in,
   * so an expired session keeps its page and its "sign in again" notice instead of being redirected away.
   */
  background?: boolean;
}

export type MethodOptions<T> = Omit<RequestOptions<T>, 'method' | 'body'>;

export interface ApiClientConfig {
  fetch?: FetchFunction;
  baseUrl?: string;
  getAccessToken?: AccessTokenProvider;
  /** Called on every 401 (the session is gone) before the error is thrown, so the app can sign in again. */
  onUnauthorized?: () => void;
  timeoutMs?: number;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: MethodOptions<T>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: MethodOptions<T>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: MethodOptions<T>): Promise<T>;
  /** Merge-patch (RFC 7396) as the API expects for updates. */
  patch<T = unknown>(path: string, body?: unknown, options?: MethodOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: MethodOptions<T>): Promise<T>;
}

function buildUrl(baseUrl: string, path: string, query: QueryParams | undefined): string {
  const url = `${baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) if (item !== undefined && item !== null) params.append(key, String(item));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isNativeBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}

/** Error bodies are usually JSON, but a proxy or a crash can answer HTML or nothing at all. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Creates a client for the REST API. Inject `fetch` in tests; the app uses the shared {@link api}. */
export function createApiClient(config: ApiClientConfig = {}): ApiClient {
  const doFetch: FetchFunction = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = config.baseUrl ?? API_BASE_URL;
  const defaultTimeout = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const token = await config.getAccessToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    else if (options.background) throw new HttpError(UNEXPECTED_ERROR, 401, undefined);

    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (isNativeBody(options.body)) {
        body = options.body;
        if (options.contentType) headers['Content-Type'] = options.contentType;
      } else {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = options.contentType ?? 'application/json';
      }
    }

    // One controller joins the caller's cancellation and our timeout, so either aborts the fetch and body read.
    const controller = new AbortController();
    const callerSignal = options.signal;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const timeoutMs = options.timeout ?? defaultTimeout;
    let timedOut = false;
    const timer =
      timeoutMs === false
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            controller.abort(new TimeoutError(timeoutMs));
          }, timeoutMs);

    // Failures of the transport itself (no response, or the body cut off): timeout, caller abort, or network.
    const transport = async <R>(work: Promise<R>): Promise<R> => {
      try {
        return await work;
      } catch (error) {
        if (timedOut) throw new TimeoutError(timeoutMs as number);
        if (callerSignal?.aborted) throw error;
        throw new Error(UNEXPECTED_ERROR, { cause: error });
      }
    };

    try {
      const response = await transport(
        doFetch(buildUrl(baseUrl, path, options.query), {
          method: options.method ?? 'GET',
          headers,
          body,
          signal: controller.signal,
        }),
      );
      const data = response.status === 204 || response.status === 205 ? undefined : await transport(readBody(response));
      if (response.status === 401 && !options.background) config.onUnauthorized?.();
      if (!response.ok) throw toApiError(response.status, data);
      return options.schema ? options.schema.parse(data) : (data as T);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    patch: (path, body, options) =>
      request(path, { contentType: 'application/merge-patch+json', ...options, method: 'PATCH', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
  };
}

let accessTokenProvider: AccessTokenProvider | undefined;
let unauthorizedHandler: (() => void) | undefined;

/** Lets the auth layer (OIDC) supply the bearer token without the client depending on it. */
export function setAccessTokenProvider(provider: AccessTokenProvider | undefined): void {
  accessTokenProvider = provider;
}

/** The current bearer token, for transports that do not go through {@link api} (resumable uploads). */
export async function getAccessToken(): Promise<string | null | undefined> {
  return accessTokenProvider?.();
}

/** Lets the auth layer start a new sign-in when any call answers 401. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  unauthorizedHandler = handler;
}

/** The app's client for `/api/v1`. */
export const api: ApiClient = createApiClient({
  getAccessToken: () => accessTokenProvider?.(),
  onUnauthorized: () => unauthorizedHandler?.(),
});
