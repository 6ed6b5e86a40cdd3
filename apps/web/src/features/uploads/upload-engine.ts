import { UPLOAD_MESSAGES } from './upload-errors.ts';
import {
  QUEUE_CONCURRENCY,
  type NewUploadItem,
  type ResolveCase,
  type UploadEvent,
  type UploadItem,
  type UploadQueueName,
  type UploadTransport,
} from './upload-types.ts';

export interface UploadEngineOptions {
  transport: UploadTransport;
  concurrency?: Partial<Record<UploadQueueName, number>>;
  now?: () => number;
  /** Told every time the number of queued or running files changes (the menu badge). */
  onActiveCountChange?: (count: number) => void;
}

export interface EnqueueOptions {
  /** Gives the case id of files whose case does not exist yet (created on submit). */
  resolveCase?: ResolveCase;
}

export interface UploadEngine {
  /** Adds files to a queue; they start as soon as the queue has a free slot. */
  enqueue(queue: UploadQueueName, items: readonly NewUploadItem[], options?: EnqueueOptions): UploadItem[];
  /** Sends a failed file again, from progress 0. */
  retry(id: string): void;
  /** Stops a running file (it fails with "Upload has been aborted") or drops a queued one. */
  cancel(id: string): void;
  /** Forgets finished files (all of a queue, or the given ids). */
  dismiss(ids: readonly string[]): void;
  /** Marks a queued file failed without sending it (e.g. its case could not be created). */
  fail(id: string, message: string): void;
  getItems: () => readonly UploadItem[];
  /** Queued or running files. */
  activeCount(): number;
  subscribe: (listener: () => void) => () => void;
  onEvent(listener: (event: UploadEvent) => void): () => void;
}

let sequence = 0;
const nextId = () => `upload-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

export const isActive = (item: UploadItem) => item.status === 'added' || item.status === 'uploading';

/** The upload queues of this browser, with a snapshot readable by `useSyncExternalStore`. */
export function createUploadEngine(options: UploadEngineOptions): UploadEngine {
  const now = options.now ?? Date.now;
  const concurrency = { ...QUEUE_CONCURRENCY, ...options.concurrency };
  let items: readonly UploadItem[] = [];
  const pending: Record<UploadQueueName, string[]> = { dialog: [], bulk: [], case: [] };
  const running = new Map<string, AbortController>();
  const resolvers = new Map<string, ResolveCase>();
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: UploadEvent) => void>();
  let lastActive = 0;

  const find = (id: string) => items.find((item) => item.id === id);

  function commit(next: readonly UploadItem[]) {
    items = next;
    const active = items.filter(isActive).length;
    if (active !== lastActive) {
      lastActive = active;
      options.onActiveCountChange?.(active);
    }
    for (const listener of listeners) listener();
  }

  function update(id: string, patch: Partial<UploadItem>): UploadItem | undefined {
    let updated: UploadItem | undefined;
    commit(
      items.map((item) => {
        if (item.id !== id) return item;
        updated = { ...item, ...patch };
        return updated;
      }),
    );
    return updated;
  }

  function emit(type: UploadEvent['type'], item: UploadItem | undefined) {
    if (!item) return;
    for (const listener of eventListeners) listener({ type, item });
  }

  function runningIn(queue: UploadQueueName): number {
    let count = 0;
    for (const id of running.keys()) if (find(id)?.queue === queue) count++;
    return count;
  }

  function pump(queue: UploadQueueName) {
    while (runningIn(queue) < concurrency[queue] && pending[queue].length > 0) {
      const id = pending[queue].shift() as string;
      if (find(id)) void run(id);
    }
  }

  async function run(id: string) {
    const controller = new AbortController();
    running.set(id, controller);
    const started = update(id, { status: 'uploading', uploadProgress: 0, error: undefined });
    if (!started) return;
    try {
      let caseId = started.caseId;
      if (!caseId) {
        const resolve = resolvers.get(id);
        if (!resolve) throw new Error('No case for the upload');
        caseId = await resolve(started);
        update(id, { caseId });
      }
      if (controller.signal.aborted) throw new Error(UPLOAD_MESSAGES.aborted);
      const item = find(id) as UploadItem;
      // Announced once the case exists, so the notification can link to it.
      emit('upload_started', item);
      let lastProgress = 0;
      let reconnecting = false;
      const result = await options.transport(
        { ...item, caseId },
        (fraction) => {
          // Whole percents are enough for the bars; fewer store updates.
          const rounded = Math.floor(Math.min(1, Math.max(0, fraction)) * 100) / 100;
          if ((rounded !== lastProgress || reconnecting) && running.get(id) === controller) {
            lastProgress = rounded;
            reconnecting = false;
            update(id, { uploadProgress: rounded, reconnecting: false });
          }
        },
        controller.signal,
        () => {
          if (reconnecting || running.get(id) !== controller) return;
          reconnecting = true;
          update(id, { reconnecting: true });
        },
      );
      if (running.get(id) !== controller) return;
      emit(
        'upload_completed',
        update(id, { status: 'uploaded', uploadProgress: 1, reconnecting: false, imageId: result.id }),
      );
    } catch (error) {
      if (running.get(id) !== controller) return;
      const message = controller.signal.aborted
        ? UPLOAD_MESSAGES.aborted
        : error instanceof Error && error.message
          ? error.message
          : UPLOAD_MESSAGES.network;
      emit('upload_failed', update(id, { status: 'upload_failed', reconnecting: false, error: message }));
    } finally {
      if (running.get(id) === controller) running.delete(id);
      const queue = find(id)?.queue;
      if (queue) pump(queue);
    }
  }

  return {
    enqueue(queue, newItems, enqueueOptions = {}) {
      const added = newItems.map<UploadItem>((item) => ({
        organ: null,
        specimenType: null,
        modelName: null,
        ...item,
        id: nextId(),
        queue,
        addedAt: now(),
        size: item.file.size,
        status: 'added',
        uploadProgress: 0,
      }));
      for (const item of added) {
        if (enqueueOptions.resolveCase) resolvers.set(item.id, enqueueOptions.resolveCase);
        pending[queue].push(item.id);
      }
      commit([...items, ...added]);
      pump(queue);
      return added;
    },
    retry(id) {
      const item = find(id);
      if (!item || item.status !== 'upload_failed') return;
      update(id, { status: 'uploading', uploadProgress: 0, error: undefined });
      pending[item.queue].unshift(id);
      pump(item.queue);
    },
    cancel(id) {
      const item = find(id);
      if (!item) return;
      const controller = running.get(id);
      if (controller) {
        controller.abort();
        running.delete(id);
        emit(
          'upload_failed',
          update(id, { status: 'upload_failed', reconnecting: false, error: UPLOAD_MESSAGES.aborted }),
        );
        pump(item.queue);
        return;
      }
      pending[item.queue] = pending[item.queue].filter((other) => other !== id);
      if (item.status === 'added' || item.status === 'uploading') {
        resolvers.delete(id);
        commit(items.filter((other) => other.id !== id));
      }
    },
    dismiss(ids) {
      const drop = new Set(ids.filter((id) => !running.has(id)));
      for (const queue of Object.keys(pending) as UploadQueueName[]) {
        pending[queue] = pending[queue].filter((id) => !drop.has(id));
      }
      for (const id of drop) resolvers.delete(id);
      commit(items.filter((item) => !drop.has(item.id)));
    },
    fail(id, message) {
      const item = find(id);
      if (!item || running.has(id)) return;
      pending[item.queue] = pending[item.queue].filter((other) => other !== id);
      emit('upload_failed', update(id, { status: 'upload_failed', error: message }));
    },
    getItems: () => items,
    activeCount: () => items.filter(isActive).length,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
}
