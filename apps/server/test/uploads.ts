import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { images } from '../src/db/schema/index.ts';
import type { TestContext } from './test-app.ts';
import { slidePath } from './testdata.ts';

/** A real slide of the shared test data (read in place, never copied into the repository). */
export const SMALL_SVS = slidePath('CMU-1-Small-Region.svs');

/** The first bytes of a PNG: valid content for .png, the wrong content for any other extension. */
export const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(8192, 1),
]);

/**
 * What a failed upload may have left: files under the blob store's `images/` folder that no image
 * row refers to (partial or temporary blobs included), and anything in the scratch folder
 * `<dataDir>/tmp` or the blob store's staging folder besides the (empty) tus folder.
 */
export async function leftovers(t: TestContext): Promise<{ blobs: string[]; scratch: string[] }> {
  const root = path.join(t.dataDir, 'blobs');
  const files = await fs.readdir(path.join(root, 'images'), { recursive: true, withFileTypes: true }).catch(() => []);
  const rows = await t.database.db.select({ key: images.originalKey }).from(images);
  const known = new Set(rows.map((row) => row.key));
  const blobs = files
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((key) => !known.has(key));
  const scratchEntries = [
    ...(await fs.readdir(path.join(t.dataDir, 'tmp'), { recursive: true }).catch(() => [])),
    ...(await fs.readdir(t.blobs.stagingFolder(), { recursive: true }).catch(() => [])),
  ];
  return { blobs, scratch: scratchEntries.filter((entry) => entry !== 'tus') };
}

/** Polls `check` until it passes (a cut connection is cleaned up after the request is gone), at most `timeoutMs`. */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Sends `declaredLength` in Content-Length but only `sent` of the body, then cuts the connection,
 * as a browser does when its tab closes mid-upload. Resolves once the socket is gone.
 */
export async function cutUpload(
  url: string,
  options: { method: string; headers: Record<string, string>; body: Buffer; declaredLength: number },
): Promise<void> {
  const request = http.request(url, {
    method: options.method,
    headers: { ...options.headers, 'content-length': String(options.declaredLength) },
  });
  request.on('error', () => {}); // the destroy below, or an early answer of the server
  await new Promise<void>((resolve) => request.write(options.body, () => resolve()));
  // Give the server time to take in what was sent before the connection goes.
  await new Promise((resolve) => setTimeout(resolve, 300));
  request.destroy();
  await new Promise((resolve) => request.once('close', resolve));
}

export const TUS = { 'tus-resumable': '1.0.0' };
export const PATCH_TYPE = { 'content-type': 'application/offset+octet-stream' };
export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** tus Upload-Metadata: comma-separated `key base64(value)` pairs. */
export const encodeMetadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** The folder of the resumable uploads in progress (the blob store's staging folder). */
export const tusFolder = (t: TestContext): string => path.join(t.blobs.stagingFolder(), 'tus');

/**
 * A tus client for one upload path served by several API servers (as behind a load balancer): requests go to the
 * server picked by index, with the caller's authorization. Read lazily, as servers and cases are made in beforeAll.
 */
export function tusPeers(setup: {
  bases: () => readonly string[];
  auth: () => Promise<Record<string, string>> | Record<string, string>;
  caseId: () => string;
}) {
  /** The upload's URL on server `at`, from the Location the creating server gave. */
  const on = (at: number, location: string) => `${setup.bases()[at]}${new URL(location, setup.bases()[0]).pathname}`;

  const call = async (url: string, method: string, headers: Record<string, string> = {}, body?: Buffer) =>
    fetch(url, { method, headers: { ...TUS, ...(await setup.auth()), ...headers }, body });

  /** Creates an upload of `length` bytes on the first server; its Location. */
  async function create(filename: string, length: number): Promise<string> {
    const response = await call(`${setup.bases()[0]}/api/v1/uploads/images`, 'POST', {
      'upload-length': String(length),
      'upload-metadata': encodeMetadata({ caseId: setup.caseId(), filename }),
    });
    expect(response.status).toBe(201);
    return response.headers.get('location')!;
  }

  async function offsetOn(at: number, location: string): Promise<number> {
    const response = await call(on(at, location), 'HEAD');
    expect(response.status).toBe(200);
    return Number(response.headers.get('upload-offset'));
  }

  return { on, call, create, offsetOn };
}
