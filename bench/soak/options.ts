/** What one soak run does; every figure has a command-line option (`npm run bench -- soak --help`). */
export interface SoakOptions {
  minutes: number;
  viewers: number;
  /** Minutes after the start when the server is killed with SIGKILL and started again; null: never. */
  killAt: number | null;
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
  minutes: 10,
  viewers: 50,
  killAt: null,
  uploads: 5,
  imports: 2,
  detections: 200_000,
  writesPerMinute: 20,
  printEverySeconds: 30,
  finishSeconds: 180,
};

export const USAGE =
  '--minutes 10, --viewers 50, --kill-at <minute>, --uploads 5, --imports 2, --detections 200000, ' +
  '--writes-per-minute 20, --print-every 30 (seconds), --finish 180 (seconds for the last conversions and imports)';

const NUMERIC: Record<string, keyof SoakOptions> = {
  '--minutes': 'minutes',
  '--viewers': 'viewers',
  '--kill-at': 'killAt',
  '--uploads': 'uploads',
  '--imports': 'imports',
  '--detections': 'detections',
  '--writes-per-minute': 'writesPerMinute',
  '--print-every': 'printEverySeconds',
  '--finish': 'finishSeconds',
};

export function parseSoakArgs(args: readonly string[]): SoakOptions {
  const options: SoakOptions = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < args.length; i += 1) {
    const [arg = '', inline] = args[i]!.split('=', 2);
    const key = NUMERIC[arg];
    if (key == null) throw new Error(`unknown option ${arg} (known: ${USAGE})`);
    const value = Number(inline ?? args[++i]);
    if (!(Number.isFinite(value) && value >= 0)) throw new Error(`${arg} takes a number of 0 or more`);
    options[key] = value;
  }
  if (!(options.minutes > 0)) throw new Error('--minutes must be above 0');
  if (options.killAt != null && !(options.killAt > 0 && options.killAt < options.minutes)) {
    throw new Error('--kill-at must fall inside the run (above 0, below --minutes)');
  }
  return options;
}
