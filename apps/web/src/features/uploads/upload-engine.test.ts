import { describe, expect, it, vi } from 'vitest';
import { createUploadEngine } from './upload-engine.ts';
import { UPLOAD_MESSAGES, UploadError, uploadErrorMessage } from './upload-errors.ts';
import type { NewUploadItem, UploadTransport } from './upload-types.ts';

interface Call {
  filename: string;
  caseId: string;
  progress: (fraction: number) => void;
  signal: AbortSignal;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A transport whose uploads finish when the test says so. */
function manualTransport() {
  const calls: Call[] = [];
  const transport: UploadTransport = (item, progress, signal) =>
    new Promise((resolve, reject) => {
      calls.push({
        filename: item.filename,
        caseId: item.caseId,
        progress,
        signal,
        resolve: () => resolve({ id: `id-${item.filename}`, filename: item.filename }),
        reject,
      });
    });
  return { calls, transport };
}

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const newItem = (name: string, caseId: string | null = 'case-1'): NewUploadItem => ({
  caseId,
  caseNumber: 'C-1',
  filename: name,
  displayName: name,
  file: file(name),
});
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('upload engine', () => {
  it('runs two dialog uploads at a time and starts the next when one ends', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    engine.enqueue('dialog', [newItem('a.svs'), newItem('b.svs'), newItem('c.svs')]);
    await flush();
    expect(calls.map((call) => call.filename)).toEqual(['a.svs', 'b.svs']);
    expect(engine.getItems().map((item) => item.status)).toEqual(['uploading', 'uploading', 'added']);
    calls[0]?.resolve();
    await flush();
    expect(calls.map((call) => call.filename)).toEqual(['a.svs', 'b.svs', 'c.svs']);
    expect(engine.getItems()[0]).toMatchObject({ status: 'uploaded', uploadProgress: 1, imageId: 'id-a.svs' });
  });

  it('runs bulk and per-case uploads one at a time, each queue on its own', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    engine.enqueue('bulk', [newItem('a.svs'), newItem('b.svs'), newItem('c.svs')]);
    engine.enqueue('case', [newItem('d.svs'), newItem('e.svs')]);
    await flush();
    expect(calls.map((call) => call.filename)).toEqual(['a.svs', 'd.svs']);
  });

  it('shows a file as reconnecting while its transport retries, until it makes progress again', async () => {
    const calls: { progress: (fraction: number) => void; reconnecting: () => void; resolve: () => void }[] = [];
    const transport: UploadTransport = (item, progress, _signal, reconnecting) =>
      new Promise((resolve) => {
        calls.push({
          progress,
          reconnecting: reconnecting ?? (() => undefined),
          resolve: () => resolve({ id: 'id', filename: item.filename }),
        });
      });
    const engine = createUploadEngine({ transport });
    engine.enqueue('dialog', [newItem('a.svs'), newItem('b.svs')]);
    await flush();
    calls[0]?.progress(0.4);
    calls[0]?.reconnecting();
    calls[1]?.reconnecting();
    expect(engine.getItems().map((item) => [item.status, item.uploadProgress, item.reconnecting])).toEqual([
      ['uploading', 0.4, true],
      ['uploading', 0, true],
    ]);
    // Resumed from the server's offset: the same fraction again still ends the waiting.
    calls[0]?.progress(0.4);
    calls[1]?.resolve();
    await flush();
    expect(engine.getItems().map((item) => [item.status, item.uploadProgress, item.reconnecting])).toEqual([
      ['uploading', 0.4, false],
      ['uploaded', 1, false],
    ]);
  });

  it('keeps the queued count for the badge', async () => {
    const { calls, transport } = manualTransport();
    const counts: number[] = [];
    const engine = createUploadEngine({ transport, onActiveCountChange: (count) => counts.push(count) });
    engine.enqueue('case', [newItem('a.svs'), newItem('b.svs')]);
    await flush();
    calls[0]?.resolve();
    await flush();
    calls[1]?.reject(new UploadError('boom'));
    await flush();
    expect(counts).toEqual([2, 1, 0]);
    expect(engine.activeCount()).toBe(0);
  });

  it('reports progress as a fraction and fails with the transport message', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    const [item] = engine.enqueue('case', [newItem('a.svs')]);
    await flush();
    calls[0]?.progress(0.256);
    expect(engine.getItems()[0]?.uploadProgress).toBe(0.25);
    calls[0]?.reject(new UploadError(UPLOAD_MESSAGES.duplicate, 409));
    await flush();
    expect(engine.getItems()[0]).toMatchObject({ id: item?.id, status: 'upload_failed', error: 'Duplicate file' });
  });

  it('retries a failed file from progress 0', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    const [item] = engine.enqueue('case', [newItem('a.svs')]);
    await flush();
    calls[0]?.progress(0.5);
    calls[0]?.reject(new Error(UPLOAD_MESSAGES.network));
    await flush();
    engine.retry(item?.id ?? '');
    expect(engine.getItems()[0]).toMatchObject({ status: 'uploading', uploadProgress: 0, error: undefined });
    await flush();
    expect(calls).toHaveLength(2);
    calls[1]?.resolve();
    await flush();
    expect(engine.getItems()[0]?.status).toBe('uploaded');
  });

  it('cancels a running upload as aborted and drops a queued one', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    const [first, second] = engine.enqueue('case', [newItem('a.svs'), newItem('b.svs'), newItem('c.svs')]);
    await flush();
    engine.cancel(second?.id ?? '');
    engine.cancel(first?.id ?? '');
    expect(calls[0]?.signal.aborted).toBe(true);
    await flush();
    expect(engine.getItems().map((item) => [item.filename, item.status, item.error])).toEqual([
      ['a.svs', 'upload_failed', 'Upload has been aborted'],
      ['c.svs', 'uploading', undefined],
    ]);
  });

  it('creates the case first, and fails the file with the case error', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    const resolveCase = vi.fn(async (item: { caseNumber: string }) => {
      if (item.caseNumber === 'bad') throw new Error('Case number already exists');
      return 'new-case';
    });
    engine.enqueue('bulk', [newItem('a.svs', null), { ...newItem('b.svs', null), caseNumber: 'bad' }], {
      resolveCase,
    });
    await flush();
    expect(calls[0]?.caseId).toBe('new-case');
    expect(engine.getItems()[0]?.caseId).toBe('new-case');
    calls[0]?.resolve();
    await flush();
    await flush();
    expect(engine.getItems()[1]).toMatchObject({ status: 'upload_failed', error: 'Case number already exists' });
  });

  it('tells listeners when uploads start, complete and fail', async () => {
    const { calls, transport } = manualTransport();
    const engine = createUploadEngine({ transport });
    const events: string[] = [];
    engine.onEvent((event) => events.push(`${event.type}:${event.item.filename}`));
    engine.enqueue('case', [newItem('a.svs'), newItem('b.svs')]);
    await flush();
    calls[0]?.resolve();
    await flush();
    calls[1]?.reject(new Error('HTTP Status: 500'));
    await flush();
    expect(events).toEqual([
      'upload_started:a.svs',
      'upload_completed:a.svs',
      'upload_started:b.svs',
      'upload_failed:b.svs',
    ]);
  });
});

describe('uploadErrorMessage', () => {
  it('maps failures to the spec texts', () => {
    expect(uploadErrorMessage(0)).toBe('XMLHttpRequest error during image upload');
    expect(uploadErrorMessage(undefined)).toBe('XMLHttpRequest error during image upload');
    expect(uploadErrorMessage(409, '{"message":"anything"}')).toBe('Duplicate file');
    expect(uploadErrorMessage(415, '{"message":"Unsupported file type"}')).toBe('Unsupported file type');
    expect(uploadErrorMessage(502, '<html>Bad gateway</html>')).toBe('HTTP Status: 502');
    expect(uploadErrorMessage(500, '{"message":""}')).toBe('HTTP Status: 500');
  });
});
