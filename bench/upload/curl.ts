import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
/** Printed by curl after the body: the status, the Location header and curl's own total seconds. */
const TRAILER = '\n%{http_code} %header{location} %{time_total}';

export interface CurlAnswer {
  status: number;
  location: string;
  body: string;
  /** curl's own time for the request (connection to last byte of the answer). */
  seconds: number;
}

/**
 * One request with curl; `upload` is sent as the body with -T (streamed from disk with Content-Length, the method
 * given by -X). "Expect:" is sent empty: without it curl waits for a "100 Continue" before a large body, and how
 * soon each server says it would be measured rather than the transfer.
 */
export async function curl(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  upload?: string,
): Promise<CurlAnswer> {
  const args = ['-sS', '-X', method, '-H', 'Expect:', '-w', TRAILER];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (upload != null) args.push('-T', upload);
  args.push(url);
  const { stdout } = await execFileAsync('curl', args, { maxBuffer: 16 * 1024 * 1024 });
  const split = stdout.lastIndexOf('\n');
  const [status = '0', location = '', seconds = '0'] = stdout.slice(split + 1).split(' ');
  return { status: Number(status), location, body: stdout.slice(0, split), seconds: Number(seconds) };
}

export interface OursTarget {
  base: string;
  auth: string;
  caseId: string;
}

function expect(answer: CurlAnswer, status: number, what: string): CurlAnswer {
  if (answer.status !== status) throw new Error(`${what}: HTTP ${answer.status} ${answer.body}`);
  return answer;
}

/** POST images with the file as the raw body; returns the image id. */
export async function curlPost(target: OursTarget, file: string, name: string): Promise<string> {
  const query = new URLSearchParams({ caseId: target.caseId, filename: name });
  const answer = await curl(
    'POST',
    `${target.base}/api/v1/images?${query.toString()}`,
    { authorization: target.auth, 'content-type': 'application/octet-stream' },
    file,
  );
  return (JSON.parse(expect(answer, 201, 'POST images').body) as { id: string }).id;
}

/** tus: the creation, then the whole file as one PATCH; returns the image id. */
export async function curlTus(target: OursTarget, file: string, size: number, name: string): Promise<string> {
  const tus = { authorization: target.auth, 'tus-resumable': '1.0.0' };
  const metadata = [`caseId ${btoa(target.caseId)}`, `filename ${btoa(name)}`].join(',');
  const created = expect(
    await curl('POST', `${target.base}/api/v1/uploads/images`, {
      ...tus,
      'upload-length': String(size),
      'upload-metadata': metadata,
    }),
    201,
    'tus creation',
  );
  const answer = await curl(
    'PATCH',
    new URL(created.location, target.base).href,
    { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
    file,
  );
  return (JSON.parse(expect(answer, 200, 'tus PATCH').body) as { id: string }).id;
}

/**
 * WebDAV PUT of the file to nginx, then fsync of the file nginx wrote (coreutils `sync FILE`), as our server
 * fsyncs a slide before it answers; returns the size of the file nginx stored.
 */
export async function curlNginxPut(base: string, davRoot: string, file: string, name: string): Promise<number> {
  expect(await curl('PUT', `${base}/${name}`, {}, file), 201, 'nginx PUT');
  const stored = path.join(davRoot, name);
  await execFileAsync('sync', [stored]);
  return (await fs.stat(stored)).size;
}
