import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import { freePort } from './free-port.ts';

export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** What a Koa middleware sees of a request, as far as the multipart listing below needs. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

/** s3rver's own filesystem store, as far as the patch below needs. */
interface S3rverInternals {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  store: {
    putPart(bucket: string, uploadId: string, partNumber: string, content: Readable): Promise<unknown>;
    getResourcePath(bucket: string, key: string, resource: string): string;
    deleteObject(bucket: string, key: string): Promise<void>;
  };
}

export interface S3Server {
  endpoint: string;
  /** While true, CompleteMultipartUpload answers 503, as an S3 that is unavailable does. */
  refuseCompletion: boolean;
  /** The variables that point the server at this S3 (STORAGE_URL `s3://bucket/prefix`). */
  env(bucket: string, prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

const XML = 'application/xml';

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The S3-compatible server the tests use (s3rver 3), completed where resumable uploads (@tus/s3-store) need
 * more than it implements: ListParts and AbortMultipartUpload (s3rver answers 405 to both), served from the folder
 * where s3rver keeps a multipart upload's parts; UploadPart answering once the part is on disk (s3rver answers
 * when its checksum is computed, before its file is flushed, so an immediate ListParts could see it short); and
 * DeleteObject leaving folders in place for writes beside it.
 */
export async function startS3Server(directory: string, buckets: string[]): Promise<S3Server> {
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const internals = server as unknown as S3rverInternals;
  const uploadsDir = (bucket: string, uploadId: string) => path.join(directory, bucket, '._S3rver_uploads', uploadId);

  internals.store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(uploadsDir(bucket, uploadId), String(partNumber));
    await fs.mkdir(path.dirname(file), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(content, hashing, createWriteStream(file));
    const digest = md5.digest('hex');
    await fs.writeFile(`${file}.md5`, digest);
    return { size, md5: digest };
  };

  // s3rver's delete also removes the key's folders once they are empty, racing a write of another key into the same
  // folder (it makes the folder, then opens the file: ENOENT, from a stream nobody listens to, which ends the test
  // process). Kept, an empty folder holds no key: keys are listed from their files.
  internals.store.deleteObject = async (bucket, key) => {
    const resources = ['object', 'object.md5', 'metadata.json'];
    await Promise.all(
      resources.map((resource) => fs.rm(internals.store.getResourcePath(bucket, key, resource), { force: true })),
    );
  };

  const faults = { refuseCompletion: false };
  internals.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (faults.refuseCompletion && ctx.method === 'POST' && typeof uploadId === 'string') {
      ctx.status = 503;
      ctx.type = XML;
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>Unavailable</Message></Error>`;
      return;
    }
    const [, bucket = '', ...keyParts] = ctx.path.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const listing = ctx.method === 'GET' && typeof uploadId === 'string';
    const aborting = ctx.method === 'DELETE' && typeof uploadId === 'string';
    if (!(listing || aborting) || key === '') return next();
    const folder = uploadsDir(bucket, uploadId);
    const storedKey = await fs.readFile(path.join(folder, 'key'), 'utf8').catch(() => null);
    if (storedKey !== key) {
      ctx.status = 404;
      ctx.type = XML;
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${escapeXml(uploadId)}</UploadId></Error>`;
      return;
    }
    if (aborting) {
      await fs.rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const numbers = (await fs.readdir(folder))
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (number) => {
        const file = path.join(folder, String(number));
        const [stat, md5] = await Promise.all([fs.stat(file), fs.readFile(`${file}.md5`, 'utf8').catch(() => '')]);
        return (
          `<Part><PartNumber>${number}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified>` +
          `<ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`
        );
      }),
    );
    ctx.status = 200;
    ctx.type = XML;
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${escapeXml(uploadId)}</UploadId>` +
      `<MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });

  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    get refuseCompletion() {
      return faults.refuseCompletion;
    },
    set refuseCompletion(value: boolean) {
      faults.refuseCompletion = value;
    },
    env: (bucket, prefix) => ({
      STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    }),
    stop: () => server.close(),
  };
}
