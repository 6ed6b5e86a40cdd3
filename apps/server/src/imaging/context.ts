import { ImagingTimeoutError } from './errors.ts';

/** One conversion's inputs and its single overall deadline, shared by every step. */
export interface ConvertContext {
  sourcePath: string;
  workDir: string;
  deadline: number;
  maxPixels: number;
  /** Niceness of the vips processes (CONVERSION_NICENESS); 0 leaves them at the server's priority. */
  niceness: number;
  signal?: AbortSignal;
}

/** Time left for the next step; throws once the budget is spent or the job was aborted. */
export function remainingMs(context: ConvertContext): number {
  context.signal?.throwIfAborted();
  const left = context.deadline - Date.now();
  if (left <= 0) throw new ImagingTimeoutError('Image conversion exceeded its time limit');
  return left;
}
