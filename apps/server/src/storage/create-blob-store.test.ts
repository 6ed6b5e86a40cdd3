import { describe, expect, it } from 'vitest';
import { StorageUrlError, createBlobStore, parseStorageUrl } from './create-blob-store.ts';
import { FilesystemBlobStore } from './filesystem-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

describe('parseStorageUrl', () => {
  it('reads filesystem locations', () => {
    expect(parseStorageUrl('file:///srv/blobs')).toEqual({ kind: 'filesystem', root: '/srv/blobs' });
    expect(parseStorageUrl('/srv/blobs')).toEqual({ kind: 'filesystem', root: '/srv/blobs' });
    expect(parseStorageUrl('data/blobs', '/app')).toEqual({ kind: 'filesystem', root: '/app/data/blobs' });
  });

  it('reads S3 locations with an optional prefix', () => {
    expect(parseStorageUrl('s3://slides')).toEqual({ kind: 's3', bucket: 'slides', prefix: '' });
    expect(parseStorageUrl('s3://slides/')).toEqual({ kind: 's3', bucket: 'slides', prefix: '' });
    expect(parseStorageUrl('s3://slides/prod/eu/')).toEqual({ kind: 's3', bucket: 'slides', prefix: 'prod/eu' });
  });

  it('rejects what it cannot serve', () => {
    for (const value of ['', 's3://', 's3://Bad_Bucket', 's3://slides/../x', 'http://example.org/x', 'file://host/x']) {
      expect(() => parseStorageUrl(value), value).toThrow(StorageUrlError);
    }
  });
});

describe('createBlobStore', () => {
  it('builds the store the URL names', async () => {
    expect(await createBlobStore('/tmp/blobs')).toBeInstanceOf(FilesystemBlobStore);
    const s3 = await createBlobStore('s3://slides/prod', { endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
    expect(s3).toBeInstanceOf(S3BlobStore);
    (s3 as S3BlobStore).close();
  });
});
