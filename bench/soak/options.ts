/** What one soak run does; every figure has a command-line option (`npm run bench -- soak --help`). */
export interface SoakOptions {
  /** `single`: `npm start` on its own; `scaled`: the topology of `npm run test:scale` (scale/topology.ts). */
  topology: 'single' | 'scaled';
  minutes: number;
  viewers: number;
  /** Single server: minutes after the start when it is killed with SIGKILL and started again; null: never. */
  killAt: number | null;
  /** Scaled topology: minutes after the start when API 1 and worker 1 are killed with SIGKILL (not restarted). */
  killApiAt: number | null;
  killWorkerAt: number | null;
  /** tus uploads running at once, each followed to its conversion before the next starts. */
  uploads: number;
  /** Detection imports over the run and the objects in each. */
  imports: number;
  detections: number;
  /** Drawings and notes saved per minute, in turns. */
  writesPerMinute: number;
  /** Seconds between two printed lines of the server's state. */
  printEverySeconds: number;
  /** Seconds after the run for the last uploads to convert and the imports to finish. */
  finishSeconds: number;
}

export const DEFAULT_OPTIONS: SoakOptions = {
  topology: 'single',
  minutes: 10,
  viewers: 50,
  killAt: null,
  killApiAt: null,
  killWorkerAt: null,
  uploads: 5,
  imports: 2,
  detections: 200_000,
  writesPerMinute: 20,
  printEverySeconds: 30,
  finishSeconds: 180,
};

/** The scaled run of issue 46, point 4: 3 minutes, the API killed at a third of the run and the worker at two. */
export const SCALED_MINUTES = 3;

export const USAGE =
  '--topology single|scaled, --minutes 10 (scaled: 3), --viewers 50, --kill-at <minute> (single), ' +
  '--kill-api-at and --kill-worker-at <minute> (scaled; a third and two thirds of the run), --uploads 5, --imports 2, --detections 200000, ' +
  '--writes-per-minute 20, --print-every 30 (seconds), --finish 180 (seconds for the last conversions and imports)';

type Numeric = Exclude<keyof SoakOptions, 'topology'>;

const NUMERIC: Record<string, Numeric> = {
  '--minutes': 'minutes',
  '--viewers': 'viewers',
  '--kill-at': 'killAt',
  '--kill-api-at': 'killApiAt',
  '--kill-worker-at': 'killWorkerAt',
  '--uploads': 'uploads',
  '--imports': 'imports',
  '--detections': 'detections',
  '--writes-per-minute': 'writesPerMinute',
  '--print-every': 'printEverySeconds',
  '--finish': 'finishSeconds',
};

export function parseSoakArgs(args: readonly string[]): SoakOptions {
  const given: Partial<SoakOptions> = {};
  for (let i = 0; i < args.length; i += 1) {
    const [arg = '', inline] = args[i]!.split('=', 2);
    if (arg === '--topology') {
      const topology = inline ?? args[++i];
      if (topology !== 'single' && topology !== 'scaled') throw new Error('--topology is single or scaled');
      given.topology = topology;
      continue;
    }
    const key = NUMERIC[arg];
    if (key == null) throw new Error(`unknown option ${arg} (known: ${USAGE})`);
    const value = Number(inline ?? args[++i]);
    if (!(Number.isFinite(value) && value >= 0)) throw new Error(`${arg} takes a number of 0 or more`);
    given[key] = value;
  }
  const scaled = given.topology === 'scaled';
  const options: SoakOptions = { ...DEFAULT_OPTIONS, ...(scaled ? { minutes: SCALED_MINUTES } : {}), ...given };
  if (scaled) {
    options.killApiAt = given.killApiAt ?? options.minutes / 3;
    options.killWorkerAt = given.killWorkerAt ?? (options.minutes * 2) / 3;
  }
  if (!(options.minutes > 0)) throw new Error('--minutes must be above 0');
  const inside = (minute: number | null) => minute == null || (minute > 0 && minute < options.minutes);
  if (scaled && options.killAt != null) throw new Error('--kill-at is for the single server (scaled: --kill-api-at)');
  if (!scaled && (options.killApiAt != null || options.killWorkerAt != null)) {
    throw new Error('--kill-api-at and --kill-worker-at are for --topology scaled');
  }
  if (![options.killAt, options.killApiAt, options.killWorkerAt].every(inside)) {
    throw new Error('a kill must fall inside the run (above 0, below --minutes)');
  }
  return options;
}
