import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUpdateChecker, fetchBuildDate, type FetchLike } from './update-checker.ts';

const MINUTE = 60_000;
const START = Date.parse('2026-03-01T09:00:00Z');

/** An injected fetch of the metadata file whose answers the test changes as it goes. */
function metaServer() {
  let answer: () => Response = () => Response.json({ date: new Date(START).toISOString() });
  const fetch = vi.fn<FetchLike>(() => Promise.resolve(answer()));
  return {
    fetch,
    deploy: (date: number) => (answer = () => Response.json({ date: new Date(date).toISOString() })),
    fail: () => (answer = () => new Response('Bad gateway', { status: 502 })),
    breakNetwork: () =>
      (answer = () => {
        throw new TypeError('Failed to fetch');
      }),
  };
}

function setup(prompt = { active: false }) {
  const server = metaServer();
  const onUpdateAvailable = vi.fn(() => (prompt.active = true));
  const checker = createUpdateChecker({
    fetchBuildDate: () => fetchBuildDate('/meta.json', server.fetch),
    onUpdateAvailable,
    isPromptActive: () => prompt.active,
  });
  return { server, onUpdateAvailable, checker, prompt };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('update checker', () => {
  it('reads the metadata without caches and polls every 60 s while nothing changes', async () => {
    const { server, checker, onUpdateAvailable } = setup();
    await checker.start();
    expect(server.fetch).toHaveBeenCalledWith('/meta.json', expect.objectContaining({ cache: 'no-store' }));
    expect(checker.state).toBe('polling');

    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(5);
    expect(onUpdateAvailable).not.toHaveBeenCalled();
  });

  it('stops polling and asks once when a newer build appears', async () => {
    const { server, checker, onUpdateAvailable } = setup();
    await checker.start();
    server.deploy(START + 5 * MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(1);
    expect(checker.state).toBe('prompting');

    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(1);
  });

  it('takes an older or equal date for no update', async () => {
    const { server, checker, onUpdateAvailable } = setup();
    await checker.start();
    server.deploy(START - MINUTE);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(onUpdateAvailable).not.toHaveBeenCalled();
    expect(checker.state).toBe('polling');
  });

  it('doubles the interval on each Ignore and polls again', async () => {
    const { server, checker, onUpdateAvailable, prompt } = setup();
    await checker.start();
    server.deploy(START + MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(1);

    prompt.active = false;
    checker.ignore();
    expect(checker.intervalMs).toBe(2 * MINUTE);
    await vi.advanceTimersByTimeAsync(2 * MINUTE - 1);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(2);

    prompt.active = false;
    checker.ignore();
    expect(checker.intervalMs).toBe(4 * MINUTE);
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(3);
  });

  it('ignores Ignore when nothing was asked', async () => {
    const { checker } = setup();
    await checker.start();
    checker.ignore();
    expect(checker.intervalMs).toBe(MINUTE);
  });

  it('never shows a second prompt while one is on screen', async () => {
    const { server, checker, onUpdateAvailable } = setup({ active: true });
    await checker.start();
    server.deploy(START + MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(checker.state).toBe('prompting');
    expect(onUpdateAvailable).not.toHaveBeenCalled();
  });

  it('is silent when a poll fails and keeps polling', async () => {
    const { server, checker, onUpdateAvailable } = setup();
    await checker.start();
    server.fail();
    await vi.advanceTimersByTimeAsync(MINUTE);
    server.breakNetwork();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(checker.state).toBe('polling');
    server.deploy(START + MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(4);
    expect(onUpdateAvailable).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an HTTP error', (s: ReturnType<typeof metaServer>) => s.fail()],
    ['a network error', (s: ReturnType<typeof metaServer>) => s.breakNetwork()],
    ['a file without a date', (s: ReturnType<typeof metaServer>) => s.deploy(Number.NaN)],
  ])('stops for good when the first read fails with %s', async (_label, breakIt) => {
    const { server, checker } = setup();
    breakIt(server);
    await checker.start();
    expect(checker.state).toBe('stopped');
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('stops polling on stop(), even during the first read', async () => {
    const { server, checker } = setup();
    const starting = checker.start();
    checker.stop();
    await starting;
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(checker.state).toBe('stopped');
  });

  it('cannot be started twice', async () => {
    const { server, checker } = setup();
    await Promise.all([checker.start(), checker.start()]);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });
});
