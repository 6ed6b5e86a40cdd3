import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';

/** Thrown when a task ran past its pool's time budget: its thread was stopped, and a fresh one takes the next task. */
export class OverBudget extends Error {
  constructor(budgetMs: number) {
    super(`The work took longer than ${budgetMs} ms and was stopped.`);
  }
}

interface Queued<Task, Result> {
  task: Task;
  transfer: readonly TransferListItem[];
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * The worker file `<name>.js` beside the built server (build.js bundles it there), or `<name>.ts` beside `from` when
 * the server runs from its sources (tests, `npm run dev`), where tsx compiles it in the thread.
 */
function startWorker(from: string, name: string): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from));
  const source = JSON.stringify(new URL(`./${name}.ts`, from).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); })`, {
    eval: true,
  });
}

/**
 * A few long-lived worker threads for CPU-bound work that would otherwise hold the HTTP event loop (one request's
 * picture stalled every other request for over a minute). Each thread runs one task at a time, the rest wait in
 * turn; a task past the time budget has its thread terminated, as native drawing cannot be interrupted otherwise.
 * Threads start when first needed and do not keep the process alive.
 */
export class ThreadPool<Task, Result> {
  private readonly idle: Worker[] = [];
  private readonly waiting: Queued<Task, Result>[] = [];
  /** When each idle thread is stopped, if no task comes first. */
  private readonly retirements = new Map<Worker, NodeJS.Timeout>();
  private running = 0;
  private readonly size: number;
  private readonly idleMs: number;

  constructor(
    /** `import.meta.url` of the module beside the worker file, and the file's name without its extension. */
    private readonly worker: { from: string; name: string },
    private readonly budgetMs: number,
    options: {
      /** Threads at most; by default one core is left to the event loop. */
      size?: number;
      /**
       * A thread idle this long is stopped, and its heap goes back to the system: one big task (an import's parsing)
       * grows a thread's heap by tens of MiB that it would keep for good. By default idle threads are kept.
       */
      idleMs?: number;
    } = {},
  ) {
    this.size = options.size ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    this.idleMs = options.idleMs ?? Number.POSITIVE_INFINITY;
  }

  run(task: Task, transfer: readonly TransferListItem[] = []): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, transfer, resolve, reject });
      this.next();
    });
  }

  /**
   * Starts threads up to the pool's size ahead of the first tasks, so that they do not wait for the worker file's
   * imports (the outline painter's canvas library takes about 0.2 s to load, more on busy cores).
   */
  warm(): void {
    while (this.idle.length + this.running < this.size) this.rest(this.started());
  }

  /** Stops every thread; tasks still waiting are refused. */
  async close(): Promise<void> {
    for (const queued of this.waiting.splice(0)) queued.reject(new Error('The thread pool closed.'));
    for (const timer of this.retirements.values()) clearTimeout(timer);
    this.retirements.clear();
    await Promise.all(this.idle.splice(0).map((thread) => thread.terminate()));
  }

  private rest(thread: Worker): void {
    this.idle.push(thread);
    if (!Number.isFinite(this.idleMs)) return;
    const timer = setTimeout(() => {
      this.retirements.delete(thread);
      const at = this.idle.indexOf(thread);
      if (at < 0) return;
      this.idle.splice(at, 1);
      void thread.terminate();
    }, this.idleMs);
    this.retirements.set(thread, timer.unref());
  }

  private take(): Worker | undefined {
    const thread = this.idle.pop();
    if (thread != null) {
      clearTimeout(this.retirements.get(thread));
      this.retirements.delete(thread);
    }
    return thread;
  }

  private next(): void {
    if (this.waiting.length === 0 || (this.idle.length === 0 && this.running >= this.size)) return;
    const queued = this.waiting.shift()!;
    const thread = this.take() ?? this.started();
    this.running += 1;
    const listeners = {
      message: (result: Result) => settle(true, () => queued.resolve(result)),
      error: (error: unknown) => settle(false, () => queued.reject(error)),
    };
    const settle = (keep: boolean, tell: () => void) => {
      clearTimeout(timer);
      thread.off('message', listeners.message).off('error', listeners.error);
      this.running -= 1;
      if (keep) this.rest(thread);
      else void thread.terminate();
      tell();
      this.next();
    };
    const timer = setTimeout(() => settle(false, () => queued.reject(new OverBudget(this.budgetMs))), this.budgetMs);
    thread.on('message', listeners.message).on('error', listeners.error);
    thread.postMessage(queued.task, queued.transfer);
  }

  private started(): Worker {
    const thread = startWorker(this.worker.from, this.worker.name);
    thread.unref();
    // A thread that dies between tasks is dropped; the one in a task is told by its own listener.
    thread
      .on('error', () => undefined)
      .on('exit', () => {
        const at = this.idle.indexOf(thread);
        if (at >= 0) this.idle.splice(at, 1);
      });
    return thread;
  }
}
