import { describe, expect, it } from 'vitest';
import { OverBudget, ThreadPool } from './thread-pool.ts';

const busy = { from: new URL('../test/fixtures/busy.ts', import.meta.url).href, name: 'busy.worker' };
const slowStart = { from: busy.from, name: 'slow-start.worker' };

describe('a thread pool', () => {
  it('works off the event loop, stops a task past its budget, and goes on with a fresh thread', async () => {
    const pool = new ThreadPool<number, number>(busy, 3_000, { size: 1 });
    try {
      expect(await pool.run(10)).toBe(10);
      // The event loop keeps answering while a thread is busy for seconds.
      const started = performance.now();
      const stopped = pool.run(60_000).catch((error: unknown) => error);
      const delays: number[] = [];
      while (performance.now() - started < 2_000) {
        const asked = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 10));
        delays.push(performance.now() - asked - 10);
      }
      expect(Math.max(...delays)).toBeLessThan(100);
      const waiting = pool.run(20);
      expect(await stopped).toBeInstanceOf(OverBudget);
      expect(performance.now() - started).toBeLessThan(10_000);
      // The task that waited its turn runs on a fresh thread.
      expect(await waiting).toBe(20);
    } finally {
      await pool.close();
    }
  });

  it('starts its threads ahead of the first tasks when warmed, so that they do not wait for their imports', async () => {
    const firstTask = async (pool: ThreadPool<number, number>) => {
      const started = performance.now();
      expect(await pool.run(0)).toBe(0);
      return performance.now() - started;
    };
    const cold = new ThreadPool<number, number>(slowStart, 10_000, { size: 1 });
    const warmed = new ThreadPool<number, number>(slowStart, 10_000, { size: 2 });
    try {
      warmed.warm();
      warmed.warm();
      // Long enough for the worker file's one-second import, whatever tsx's own start takes in the thread.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await firstTask(cold)).toBeGreaterThan(1_000);
      // Both of its threads are up: two tasks at once wait for neither's imports.
      const [first, second] = await Promise.all([firstTask(warmed), firstTask(warmed)]);
      expect(Math.max(first, second)).toBeLessThan(500);
    } finally {
      await Promise.all([cold.close(), warmed.close()]);
    }
  });

  it('stops a thread idle past its time, so a later task starts a fresh one', async () => {
    const pool = new ThreadPool<number, number>(slowStart, 10_000, { size: 1, idleMs: 500 });
    const task = async () => {
      const started = performance.now();
      expect(await pool.run(0)).toBe(0);
      return performance.now() - started;
    };
    try {
      expect(await task()).toBeGreaterThan(1_000);
      expect(await task()).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await task()).toBeGreaterThan(1_000);
    } finally {
      await pool.close();
    }
  });
});
