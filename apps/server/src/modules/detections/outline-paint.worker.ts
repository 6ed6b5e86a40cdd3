import { parentPort } from 'node:worker_threads';
import { paintOutlines, type OutlinePaint } from './outline-paint.ts';

/** A worker thread of the tile painters (cpu-pool.ts): paints each tile it is sent and hands its pixels back. */
parentPort!.on('message', (paint: OutlinePaint) => {
  const pixels = paintOutlines(paint);
  // A copy of its own (paintOutlines), never shared: handed over rather than copied again.
  parentPort!.postMessage(pixels, [pixels.buffer as ArrayBuffer]);
});
