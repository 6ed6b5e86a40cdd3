import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const MiB = 1024 * 1024;

/**
 * A TIFF header (all the content check reads) followed by real, incompressible bytes: a random
 * block written over and over, so the file takes its full size on disk (not sparse).
 */
export async function writeSlide(file: string, size: number): Promise<void> {
  const block = randomBytes(64 * MiB);
  block.write('II', 0, 'latin1');
  block.writeUInt16LE(42, 2);
  block.writeUInt32LE(8, 4);
  const handle = await fs.open(file, 'wx');
  try {
    for (let written = 0; written < size;) {
      const { bytesWritten } = await handle.write(block, 0, Math.min(block.length, size - written), written);
      written += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Sends a byte range of `file` as one request body with Content-Length, streamed from disk. */
async function send(
  url: string,
  options: { method: string; headers: Record<string, string>; file: string; start: number; end: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const length = options.end - options.start;
  const request = http.request(url, {
    // A connection of its own: a kept-alive socket the server closes just then would fail the request.
    agent: false,
    method: options.method,
    headers: { ...options.headers, 'content-length': String(length) },
  });
  const answered = once(request, 'response') as Promise<[http.IncomingMessage]>;
  // A server that answers before the whole body is sent (an error) resets the rest: the answer says why.
  request.on('error', () => undefined);
  // Large reads, as a browser's file reader makes: the client must not be what limits the server.
  if (length > 0) {
    createReadStream(options.file, { start: options.start, end: options.end - 1, highWaterMark: MiB }).pipe(request);
  } else {
    request.end();
  }
  const [response] = await answered;
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode ?? 0, headers: response.headers, body };
}

export interface UploadTarget {
  base: string;
  auth: string;
  caseId: string;
}

/** POST images with the whole file as the body; returns the image id. */
export async function uploadPost(target: UploadTarget, file: string, size: number, name: string): Promise<string> {
  const query = new URLSearchParams({ caseId: target.caseId, filename: name });
  const response = await send(`${target.base}/api/v1/images?${query.toString()}`, {
    method: 'POST',
    headers: { authorization: target.auth, 'content-type': 'application/octet-stream' },
    file,
    start: 0,
    end: size,
  });
  if (response.status !== 201) throw new Error(`POST images: HTTP ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { id: string }).id;
}

/** tus creation, then PATCHes of `chunk` bytes one after the other, as tus-js-client sends them; returns the image id. */
export async function uploadTus(
  target: UploadTarget,
  file: string,
  size: number,
  name: string,
  chunk: number,
): Promise<string> {
  const tus = { authorization: target.auth, 'tus-resumable': '1.0.0' };
  const metadata = [`caseId ${btoa(target.caseId)}`, `filename ${btoa(name)}`].join(',');
  const created = await send(`${target.base}/api/v1/uploads/images`, {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(size), 'upload-metadata': metadata },
    file,
    start: 0,
    end: 0,
  });
  if (created.status !== 201) throw new Error(`tus creation: HTTP ${created.status} ${created.body}`);
  const url = new URL(String(created.headers.location), target.base).href;
  for (let offset = 0; offset < size; offset += chunk) {
    const end = Math.min(size, offset + chunk);
    const response = await send(url, {
      method: 'PATCH',
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
      file,
      start: offset,
      end,
    });
    if (end === size && response.status === 200) return (JSON.parse(response.body) as { id: string }).id;
    if (response.status !== 204) throw new Error(`tus PATCH at ${offset}: HTTP ${response.status} ${response.body}`);
  }
  throw new Error('tus upload ended without a final answer');
}

/** `count` hard links of `file` named after one case number each (the bulk screen reads the case from the name). */
export async function bulkNames(folder: string, file: string, count: number): Promise<string[]> {
  await fs.mkdir(folder, { recursive: true });
  const stamp = Date.now();
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = path.join(folder, `BENCH-BULK-${stamp}-${index}.tif`);
    await fs.link(file, name);
    names.push(name);
  }
  return names;
}
