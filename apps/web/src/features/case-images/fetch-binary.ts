import { API_BASE_URL, DEFAULT_TIMEOUT_MS, TimeoutError, UNEXPECTED_ERROR, getAccessToken } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';

export interface BinaryRequest {
  query?: Record<string, string>;
  signal?: AbortSignal;
  /** Milliseconds, or `false` for none (large downloads). */
  timeout?: number | false;
  /** Sent as a JSON POST body (a download asked for with parameters, e.g. drawings of images). */
  json?: unknown;
}

/** `images/1/data` → `/api/v1/images/1/data`; a path from the server root (`/api/v1/…`) is kept. */
export function apiUrl(path: string, query?: Record<string, string>): string {
  const base = path.startsWith(API_BASE_URL) ? path : `${API_BASE_URL}/${path.replace(/^\//, '')}`;
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${base}?${search}` : base;
}

async function errorOf(response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    // A proxy's HTML page: keep the text, the status decides the message.
  }
  return toApiError(response.status, body);
}

/**
 * GET (or, with `json`, POST) of a binary body (thumbnail, PDF, download) with the bearer token. `<img src>` and links cannot send the
 * Authorization header, so the bytes are read here and shown through object URLs. Errors are the JSON client's.
 */
export async function fetchBinary(path: string, request: BinaryRequest = {}): Promise<Blob> {
  const token = await getAccessToken();
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  if (request.signal?.aborted) onAbort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = request.timeout ?? DEFAULT_TIMEOUT_MS;
  let timedOut = false;
  const timer =
    timeoutMs === false
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  // Failures of the transport (no answer, or the body cut off) read as the client's: timeout, abort or unexpected.
  const transport = async <R>(work: Promise<R>): Promise<R> => {
    try {
      return await work;
    } catch (error) {
      if (timedOut) throw new TimeoutError(timeoutMs as number);
      if (request.signal?.aborted) throw error;
      throw new Error(UNEXPECTED_ERROR, { cause: error });
    }
  };
  try {
    const response = await transport(
      fetch(apiUrl(path, request.query), {
        ...(request.json === undefined ? {} : { method: 'POST', body: JSON.stringify(request.json) }),
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(request.json === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        signal: controller.signal,
      }),
    );
    if (!response.ok) throw await errorOf(response);
    return await transport(response.blob());
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

/** Saves a blob under `filename` through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; a tick later the URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
