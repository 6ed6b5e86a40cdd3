import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataStore, Server, ServerOptions, Upload } from '@tus/server';
import type { ImageUploadResponse } from '@pathology/contract';
import type { ImageIngest, PreparedImageUpload } from '../images/image-ingest.ts';
import { TUS_UPLOAD_EXPIRATION_MS } from './expiration.ts';
import { StagingFileStore } from './staging-file-store.ts';

type Ingest = Pick<ImageIngest, 'receiveFile' | 'receiveStored'>;

/** Where a resumable upload's bytes wait until whole, and how a whole one becomes an image. */
export interface UploadStorage {
  datastore: DataStore;
  /** How the upload's id in its URL maps to the datastore's, where they differ. */
  naming?: Pick<ServerOptions, 'namingFunction' | 'getFileIdFromRequest' | 'generateUrl'>;
  /** The image id a finished upload becomes, decided when the upload was created (undefined: one made then). */
  imageIdOf(upload: Upload): string | undefined;
  /** Checks a finished upload and stores it as the prepared image. */
  receive(ingest: Ingest, prepared: PreparedImageUpload, upload: Upload): Promise<ImageUploadResponse>;
  /**
   * Every byte arrived but the storage could not take the file: keeps the upload resumable if it can (and says
   * so), so that a client resuming it sends its last byte again and storing is retried.
   */
  keepResumable(upload: Upload): Promise<boolean>;
  /**
   * A complete upload that no process is storing and whose image was never recorded (its server was killed between
   * the last byte and recording): `reopened` when it was made one byte short again, as keepResumable does, so that
   * the client sends that byte again and storing runs; `whole` when its bytes lie stored at the image's key and only
   * recording is left; null when there is nothing of it to recover.
   */
  recoverUnstored(upload: Upload): Promise<'reopened' | 'whole' | null>;
  /** Deletes the uploads older than the expiration, complete ones not `finishing` included; returns how many. */
  sweep(server: Server, finishing: ReadonlySet<string>): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Uploads as files of a folder every API process shares (the blob store's staging folder), renamed into the
 * blob store once whole. The upload's id (its URL's and its file's) is the image's id.
 */
export function folderUploadStorage(directory: string): UploadStorage {
  const datastore = new StagingFileStore({ directory, expirationPeriodInMilliseconds: TUS_UPLOAD_EXPIRATION_MS });
  const fileOf = (upload: Upload) => upload.storage?.path ?? path.join(directory, upload.id);
  return {
    datastore,
    naming: { namingFunction: () => randomUUID() },
    // Uploads begun before their ids were image ids (tus's own 32 hex digits) become an image of a new id.
    imageIdOf: (upload) => (UUID.test(upload.id) ? upload.id : undefined),
    receive: (ingest, prepared, upload) => ingest.receiveFile(prepared, fileOf(upload), upload.size ?? 0),
    // With the offset at the full length, a tus client would take the upload for finished: one byte goes.
    async keepResumable(upload) {
      await fs.truncate(fileOf(upload), Math.max(0, (upload.size ?? 1) - 1));
      return true;
    },
    // Storing moves the whole file into the blob store: one still here, whole, was never stored.
    async recoverUnstored(upload) {
      const staged = await fs.stat(fileOf(upload)).catch(() => null);
      if (upload.size == null || upload.size === 0 || staged?.size !== upload.size) return null;
      await fs.truncate(fileOf(upload), upload.size - 1);
      return 'reopened';
    },
    async sweep(server, finishing) {
      let removed = await server.cleanUpExpiredUploads();
      // tus keeps complete uploads; ours stay complete only while being stored, or after a crash in between.
      for (const id of (await datastore.configstore.list?.()) ?? []) {
        const upload = await datastore.getUpload(id).catch(() => null);
        const created = upload?.creation_date == null ? Date.now() : Date.parse(upload.creation_date);
        if (finishing.has(id) || Date.now() - created <= TUS_UPLOAD_EXPIRATION_MS) continue;
        await datastore.remove(id).catch(() => undefined);
        removed += 1;
      }
      return removed;
    },
  };
}
