import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ByteCounter } from '../../storage/blob-stream.ts';
import { storageFailure } from '../../storage/storage-failure.ts';

/**
 * tus's FileStore, whose PATCH write keeps the reason when the disk is full or refuses writes (FileStore
 * turns every failure into a bare 500), so the client is told to come back (see onResponseError); the bytes written before the
 * failure stay, and the upload's offset (the file's size) resumes after them. Each PATCH is flushed to disk
 * before it is acknowledged.
 */
export class StagingFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const counter = new ByteCounter();
    const writer = createWriteStream(path.join(this.directory, id), { flags: 'r+', start: offset, flush: true });
    try {
      await pipeline(readable, counter, writer);
    } catch (error) {
      throw storageFailure(error) ?? error;
    }
    return offset + counter.bytes;
  }
}
