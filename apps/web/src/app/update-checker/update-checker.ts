import { UPDATE_CHECK_INTERVAL_MS } from '../../config.ts';

/**
 * Polls the build's metadata for a newer deployment (spec part 3 §4): the date read at start is the baseline; each
 * poll that reads a newer date stops polling and asks the user. Ignore doubles the interval and polls again; a
 * failed poll is silent and polling goes on; a failed first read stops the checker for good.
 */
export type UpdateCheckerState = 'idle' | 'starting' | 'polling' | 'prompting' | 'stopped';

export interface UpdateCheckerOptions {
  /** The build date in epoch milliseconds; rejects when it cannot be read. */
  fetchBuildDate: () => Promise<number>;
  /** Show the prompt (a toast with Ignore and Refresh). */
  onUpdateAvailable: () => void;
  /** True while an update prompt is on screen: no second one is shown. */
  isPromptActive?: () => boolean;
  intervalMs?: number;
}

export interface UpdateChecker {
  readonly state: UpdateCheckerState;
  readonly intervalMs: number;
  /** Reads the baseline and starts polling; resolves once the first read is done. */
  start(): Promise<void>;
  /** The user dismissed the prompt: poll again at twice the interval. */
  ignore(): void;
  stop(): void;
}

export function createUpdateChecker(options: UpdateCheckerOptions): UpdateChecker {
  let state: UpdateCheckerState = 'idle';
  let intervalMs = options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS;
  let baseline = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), intervalMs);
  };

  const poll = async () => {
    timer = undefined;
    let date: number;
    try {
      date = await options.fetchBuildDate();
    } catch {
      if (state === 'polling') schedule();
      return;
    }
    if (state !== 'polling') return;
    if (date <= baseline) {
      schedule();
      return;
    }
    state = 'prompting';
    if (!options.isPromptActive?.()) options.onUpdateAvailable();
  };

  return {
    get state() {
      return state;
    },
    get intervalMs() {
      return intervalMs;
    },
    async start() {
      if (state !== 'idle') return;
      state = 'starting';
      try {
        baseline = await options.fetchBuildDate();
      } catch {
        state = 'stopped';
        return;
      }
      // stop() may have been called while the first read was on its way.
      if (state !== 'starting') return;
      state = 'polling';
      schedule();
    },
    ignore() {
      if (state !== 'prompting') return;
      intervalMs *= 2;
      state = 'polling';
      schedule();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      state = 'stopped';
    },
  };
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Reads `{ "date": "<ISO time>" }` from the metadata file, bypassing every cache. */
export async function fetchBuildDate(
  url: string,
  fetchImpl: FetchLike = (input, init) => fetch(input, init),
): Promise<number> {
  const response = await fetchImpl(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = (await response.json()) as unknown;
  const date = typeof body === 'object' && body !== null ? (body as { date?: unknown }).date : undefined;
  const time = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(time)) throw new Error(`${url} has no valid date`);
  return time;
}
