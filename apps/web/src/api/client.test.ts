import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  HttpError,
  TimeoutError,
  UNEXPECTED_ERROR,
  ValidationError,
  createApiClient,
} from './client.ts';

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that answers every call with the given response and records what it was asked. */
function respondWith(makeResponse: () => Response): { fetch: FetchFunction; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: (url, init) => {
      calls.push({ url, init });
      return Promise.resolve(makeResponse());
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fetch that never answers and, like the real one, rejects with the signal's reason when aborted. */
const hangingFetch: FetchFunction = (_url, init) =>
  new Promise((_resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) reject(signal.reason as Error);
    signal?.addEventListener('abort', () => reject(signal.reason as Error));
  });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('api client: success', () => {
  it('returns the parsed JSON body and calls /api/v1 with query parameters', async () => {
    const { fetch, calls } = respondWith(() => json(200, { status: 'ok' }));
    const client = createApiClient({ fetch, getAccessToken: () => 'token-1' });

    await expect(
      client.get('/cases', { query: { page: 2, q: 'a b', tags: ['x', 'y'], skip: undefined } }),
    ).resolves.toEqual({ status: 'ok' });
    expect(calls[0]?.url).toBe('/api/v1/cases?page=2&q=a+b&tags=x&tags=y');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.headers).toMatchObject({ Accept: 'application/json', Authorization: 'Bearer token-1' });
  });

  it('returns undefined for 204 No Content', async () => {
    const { fetch } = respondWith(() => new Response(null, { status: 204 }));
    await expect(createApiClient({ fetch }).delete('/cases/1')).resolves.toBeUndefined();
  });

  it('sends JSON bodies, and merge-patch for PATCH', async () => {
    const { fetch, calls } = respondWith(() => json(200, {}));
    const client = createApiClient({ fetch });
    await client.post('/cases', { caseNumber: 'A-1' });
    await client.patch('/cases/1', { diagnosis: null });

    expect(calls[0]?.init.body).toBe('{"caseNumber":"A-1"}');
    expect(calls[0]?.init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(calls[1]?.init.method).toBe('PATCH');
    expect(calls[1]?.init.headers).toMatchObject({ 'Content-Type': 'application/merge-patch+json' });
  });

  it('runs the response through a schema when given one', async () => {
    const { fetch } = respondWith(() => json(200, { n: '3' }));
    const schema = { parse: (data: unknown) => Number((data as { n: string }).n) };
    await expect(createApiClient({ fetch }).get('/x', { schema })).resolves.toBe(3);
  });
});

describe('api client: error mapping', () => {
  it('maps a body with an errors object to a ValidationError of field → message', async () => {
    const { fetch } = respondWith(() =>
      json(422, { message: 'Invalid case', errors: { caseNumber: 'Case number is required', organ: 'Too long' } }),
    );
    const error = await failureOf(createApiClient({ fetch }).post('/cases', {}));

    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      message: 'Invalid case',
      status: 422,
      errors: { caseNumber: 'Case number is required', organ: 'Too long' },
    });
  });

  it('accepts an errors list of { field, message } and per-field message arrays', async () => {
    const list = respondWith(() =>
      json(400, {
        message: 'Bad',
        errors: [
          { field: 'title', message: 'Title is required' },
          { path: ['a', 'b'], message: 'x' },
        ],
      }),
    );
    await expect(failureOf(createApiClient({ fetch: list.fetch }).get('/x'))).resolves.toMatchObject({
      errors: { title: 'Title is required', 'a.b': 'x' },
    });

    const arrays = respondWith(() => json(422, { message: 'Bad', errors: { hour: ['Must be 0-23', 'Required'] } }));
    await expect(failureOf(createApiClient({ fetch: arrays.fetch }).get('/x'))).resolves.toMatchObject({
      errors: { hour: 'Must be 0-23' },
    });
  });

  it('treats an empty errors object as an ordinary failure with the server message', async () => {
    const { fetch } = respondWith(() => json(400, { message: 'Nope', errors: {} }));
    const error = await failureOf(createApiClient({ fetch }).get('/x'));
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ name: 'HttpError', message: 'Nope', status: 400 });
  });

  it('maps 404 to an AuthError ("auth-error"), whatever the body says', async () => {
    const { fetch } = respondWith(() => json(404, { message: 'Case not found' }));
    const error = await failureOf(createApiClient({ fetch }).get('/cases/9'));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe('auth-error');
  });

  it('reports a 401 to onUnauthorized before throwing, and only a 401', async () => {
    const onUnauthorized = vi.fn();
    const expired = respondWith(() => json(401, { message: 'Unauthorized' }));
    const error = await failureOf(createApiClient({ fetch: expired.fetch, onUnauthorized }).get('/accounts/me'));
    expect(error).toMatchObject({ name: 'HttpError', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const forbidden = respondWith(() => json(403, { message: 'Forbidden' }));
    await failureOf(createApiClient({ fetch: forbidden.fetch, onUnauthorized }).get('/x'));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('never starts a sign-in from a background call: no token means no request, and a 401 is only thrown', async () => {
    const onUnauthorized = vi.fn();
    const expired = respondWith(() => json(401, { message: 'Unauthorized' }));
    const withoutToken = createApiClient({ fetch: expired.fetch, onUnauthorized, getAccessToken: () => undefined });
    expect(await failureOf(withoutToken.get('/notices/badges', { background: true }))).toMatchObject({ status: 401 });
    expect(expired.calls).toHaveLength(0);

    const refused = createApiClient({ fetch: expired.fetch, onUnauthorized, getAccessToken: () => 'stale' });
    expect(await failureOf(refused.get('/notices/badges', { background: true }))).toMatchObject({ status: 401 });
    expect(expired.calls).toHaveLength(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('uses the server message for other failures', async () => {
    const { fetch } = respondWith(() => json(409, { message: 'Duplicate file' }));
    const error = await failureOf(createApiClient({ fetch }).post('/uploads', {}));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: 'Duplicate file', status: 409, body: { message: 'Duplicate file' } });
  });

  it.each([
    ['an empty body', () => new Response(null, { status: 500 })],
    ['an HTML page', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    ['JSON without a message', () => json(500, { error: 'x' })],
    ['a blank message', () => json(500, { message: '  ' })],
  ])('falls back to "Unexpected error" for %s', async (_label, makeResponse) => {
    const error = await failureOf(createApiClient({ fetch: respondWith(makeResponse).fetch }).get('/x'));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe(UNEXPECTED_ERROR);
  });

  it('maps a network failure to "Unexpected error", keeping the cause', async () => {
    const refused = new TypeError('Failed to fetch');
    const error = await failureOf(createApiClient({ fetch: () => Promise.reject(refused) }).get('/x'));
    expect(error).toMatchObject({ message: UNEXPECTED_ERROR, cause: refused });
  });
});

describe('api client: timeout and cancellation', () => {
  it('gives up after 20 s by default', async () => {
    vi.useFakeTimers();
    const pending = failureOf(createApiClient({ fetch: hangingFetch }).get('/x'));
    let settled = false;
    void pending.then(() => (settled = true));

    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(DEFAULT_TIMEOUT_MS).toBe(20_000);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('honours a per-call timeout', async () => {
    const error = await failureOf(createApiClient({ fetch: hangingFetch }).get('/x', { timeout: 10 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 10 });
  });

  it('can run without a timeout', async () => {
    vi.useFakeTimers();
    let answer: ((response: Response) => void) | undefined;
    const fetch: FetchFunction = () => new Promise((resolve) => (answer = resolve));
    const pending = createApiClient({ fetch }).get('/cases/search', { timeout: false });

    await vi.advanceTimersByTimeAsync(10 * DEFAULT_TIMEOUT_MS);
    answer?.(json(200, { data: [], total: 0 }));
    await expect(pending).resolves.toEqual({ data: [], total: 0 });
  });

  it("rethrows the caller's abort untouched so query cancellation stays a cancellation", async () => {
    const controller = new AbortController();
    const pending = failureOf(createApiClient({ fetch: hangingFetch }).get('/x', { signal: controller.signal }));
    const reason = new DOMException('cancelled', 'AbortError');
    setTimeout(() => controller.abort(reason), 5);
    await expect(pending).resolves.toBe(reason);
  });
});
