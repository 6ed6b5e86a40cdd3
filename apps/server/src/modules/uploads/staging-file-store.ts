import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload } from '@tus/server';
import { BatchedFileWriter } from '../../storage/batched-file-writer.ts';
import { storageFailure } from '../../storage/storage-failure.ts';

/**
 * tus's FileStore, whose PATCH write keeps the reason when the disk is full or refuses writes (FileStore
 * turns every failure into a bare 500), so the client is told to come back (see onResponseError); the bytes written before the
 * failure stay, and the upload's offset (the file's size) resumes after them.
 *
 * A PATCH is not fsynced: what it wrote is in the kernel's cache and survives the process being killed, and
 * the file is fsynced once whole, before the blob store takes it (putFile). A finished upload's file has been
 * moved into the blob store, so removing it removes its info file alone.
 */
export class StagingFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // Socket reads gathered into large writes; a PATCH cut short keeps what was gathered (the writer ends with it).
    const writer = new BatchedFileWriter(path.join(this.directory, id), { flags: 'r+', start: offset });
    try {
      await pipeline(readable, writer);
    } catch (error) {
      throw storageFailure(error) ?? error;
    }
    return offset + writer.bytesWritten;
  }

  /** An upload whose file went into the blob store is whole (tus reads it again after the last PATCH). */
  override async getUpload(id: string): Promise<Upload> {
    try {
      return await super.getUpload(id);
    } catch (error) {
      const info = error === ERRORS.FILE_NO_LONGER_EXISTS ? await this.configstore.get(id) : undefined;
      if (info?.size == null) throw error;
      return new Upload({ ...info, offset: info.size });
    }
  }

  override async remove(id: string): Promise<void> {
    const [file, info] = await Promise.all([
      fs.unlink(path.join(this.directory, id)).then(
        () => true,
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
          throw error;
        },
      ),
      this.configstore.get(id),
    ]);
    // tus recognises its own error objects (status and body), which are not Error instances.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (!file && info == null) throw ERRORS.FILE_NOT_FOUND;
    await this.configstore.delete(id);
  }
}
