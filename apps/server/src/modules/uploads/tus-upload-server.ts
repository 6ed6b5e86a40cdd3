import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS, EVENTS, Server, type Locker, type ServerOptions, type Upload } from '@tus/server';
import {
  IMAGE_MESSAGES,
  ImageUploadQuerySchema,
  MESSAGES,
  UPLOAD_IMAGE_ID_HEADER,
  type ErrorResponse,
  type ImageUploadResponse,
} from '@pathology/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../auth/caller.ts';
import { refuseNulCharacters } from '../../http/nul-characters.ts';
import { HttpError } from '../../http/http-error.ts';
import { StorageFailure, storageFailure } from '../../storage/storage-failure.ts';
import type { ImageIngest, ImageUploadRequest } from '../images/image-ingest.ts';
import type { UploadStorage } from './upload-storage.ts';

export { TUS_UPLOAD_EXPIRATION_MS } from './expiration.ts';

/** The Upload-Metadata key under which the server records the account that created an upload. */
const OWNER_KEY = 'accountId';

/** The fields of `POST images?…` that the client sends as Upload-Metadata. */
const REQUEST_KEYS = ['caseId', 'filename', 'displayName', 'metadata'] as const;

const JSON_TYPE = 'application/json; charset=utf-8';
const BUSY_BODY = JSON.stringify({ message: IMAGE_MESSAGES.uploadBusy } satisfies ErrorResponse);

/** The request type the tus hooks receive (a web Request wrapping Node's). */
type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
/** What a tus hook throws to answer with a status and body (tus reads `status_code` and `body`). */
class TusFailure extends Error {
  readonly status_code: number;
  readonly body: string;
  constructor(answer: { status_code: number; body: string }) {
    super(answer.body);
    this.status_code = answer.status_code;
    this.body = answer.body;
  }
}

interface Deps {
  ingest: Pick<ImageIngest, 'prepare' | 'receiveFile' | 'receiveStored' | 'recorded' | 'discardUnrecorded'>;
  /** Where uploads in progress live, seen by every API process: the blob store's staging folder, or its bucket. */
  storage: UploadStorage;
  /** Keeps two requests from writing one upload at once, across processes. */
  locker: Locker;
  /** The public path of the endpoint, e.g. `/api/v1/uploads/images`. */
  path: string;
  log: FastifyBaseLogger;
}

/** The answer of a request that met the upload held by another (the locker's 423, or ours while storing). */
function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error != null && 'status_code' in error && error.status_code === 423;
}

/** The upload's metadata as the body of `POST images`, or 422 with one message per field. */
export function parseUploadRequest(metadata: Upload['metadata']): ImageUploadRequest {
  const fields = Object.fromEntries(REQUEST_KEYS.map((key) => [key, metadata?.[key] ?? undefined]));
  const parsed = ImageUploadQuerySchema.safeParse(fields);
  if (parsed.success) {
    refuseNulCharacters(parsed.data);
    return parsed.data;
  }
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.join('.') || 'metadata'] ??= issue.message;
  throw HttpError.validation(errors);
}

/**
 * A tus 1.0 server (creation, creation-with-upload, creation-defer-length, termination,
 * expiration) whose finished uploads go through the same ingest as `POST images`. Every check
 * that needs no bytes runs when the upload is created, so a refused upload never receives data;
 * the checks run again on the last byte, as rights may have changed in between.
 *
 * The tus hooks see a web Request; the route hands over the authenticated caller with
 * `handle(caller, req, res)`, keyed by the Node request underneath.
 */
export function createTusUploadServer({ ingest, storage, locker, path: endpoint, log }: Deps) {
  const callers = new WeakMap<IncomingMessage, Caller>();
  /** Uploads whose last byte arrived and which are being stored: a repeated final PATCH must not store them twice. */
  const finishing = new Set<string>();
  const { datastore } = storage;

  function nodeRequest(req: TusRequest) {
    return req.runtime?.node as { req: IncomingMessage; res?: ServerResponse };
  }

  function callerOf(req: TusRequest): Caller {
    const caller = callers.get(nodeRequest(req).req);
    if (caller == null) throw failure(req, HttpError.unauthorized());
    return caller;
  }

  /** Turns an error into what tus answers: our JSON `{ message }` shape; tus's own errors pass as they are. */
  function failure(req: TusRequest, error: unknown): TusFailure {
    if (error instanceof TusFailure) return error;
    if (typeof error === 'object' && error != null && 'status_code' in error && 'body' in error) {
      return new TusFailure(error as { status_code: number; body: string });
    }
    // tus writes the body with no type of its own; the Node response keeps headers set before it writes.
    const res = nodeRequest(req).res;
    res?.setHeader('Content-Type', JSON_TYPE);
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) res?.setHeader(name, value);
      const body: ErrorResponse = { message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
      return new TusFailure({ status_code: error.statusCode, body: JSON.stringify(body) });
    }
    log.error({ err: error }, 'resumable upload failed');
    const body = JSON.stringify({ message: MESSAGES.unexpectedError } satisfies ErrorResponse);
    return new TusFailure({ status_code: 500, body });
  }

  /** Every byte arrived but the storage could not take the file: the upload stays resumable where it can. */
  async function keepResumable(upload: Upload): Promise<boolean> {
    return storage.keepResumable(upload).catch((error: unknown) => {
      log.warn({ err: error, uploadId: upload.id }, 'could not reopen a resumable upload after a storage failure');
      return true;
    });
  }

  /**
   * Holds the upload's lock (across processes) while `work` runs. A request of this process that asks for it
   * meanwhile is not let in early: it waits, then is answered 423 and retries.
   */
  async function underLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const lock = locker.newLock(id);
    await lock.lock(new AbortController().signal, () => undefined);
    try {
      return await work();
    } finally {
      await lock.unlock();
    }
  }

  /**
   * Stores a whole upload as its image, under the upload's lock: checks the rights and the name again, then the
   * bytes. An upload another process recorded meanwhile is answered as stored, never stored twice.
   */
  async function store(req: TusRequest, upload: Upload): Promise<ImageUploadResponse> {
    const request = parseUploadRequest(upload.metadata);
    const imageId = storage.imageIdOf(upload);
    if (imageId != null && (await ingest.recorded(imageId))) return { id: imageId, filename: request.filename };
    const prepared = await ingest.prepare(callerOf(req), request, undefined, imageId);
    return storage.receive(ingest, prepared, upload);
  }

  /** Storing failed: a refused upload goes with any bytes at its image's key; a storage failure keeps what it can. */
  async function dropRefused(upload: Upload, error: unknown): Promise<void> {
    if (error instanceof StorageFailure && (await keepResumable(upload))) return;
    await discard(upload.id);
    const imageId = storage.imageIdOf(upload);
    if (!(error instanceof StorageFailure) && imageId != null) await ingest.discardUnrecorded(imageId);
  }

  /**
   * A complete upload that nobody is storing: its server was killed after the last byte and before the image was
   * recorded (the lock went with the process). Its HEAD would say it is whole, which a tus client takes for
   * success with no image. Made one byte short, the client sends that byte again and storing runs once more;
   * already stored at the image's key, it is recorded here, and the HEAD names the image.
   */
  async function recoverUnstored(req: TusRequest, upload: Upload): Promise<void> {
    const { id } = upload;
    if (finishing.has(id) || upload.size == null || upload.offset !== upload.size) return;
    const imageId = storage.imageIdOf(upload);
    if (imageId != null && (await ingest.recorded(imageId))) return;
    await underLock(id, async () => {
      const current = await datastore.getUpload(id);
      if (finishing.has(id) || current.offset !== current.size) return;
      if (imageId != null && (await ingest.recorded(imageId))) return;
      const found = await storage.recoverUnstored(current);
      if (found === 'reopened') log.warn({ uploadId: id }, 'reopened a complete upload never stored');
      if (found !== 'whole') return;
      log.warn({ uploadId: id }, 'recording a complete upload never recorded');
      try {
        await store(req, current);
        // As after a last PATCH, the upload goes once its answer is written (the HEAD still reads it).
        nodeRequest(req).res?.once('finish', () => void discard(id));
      } catch (error) {
        // Unavailable storage: all stays as it is for the client's next HEAD.
        if (!(error instanceof StorageFailure)) await dropRefused(current, error);
        throw failure(req, error);
      }
    });
  }

  async function nameStoredImage(req: TusRequest, id: string): Promise<void> {
    if (finishing.has(id)) return;
    const upload = await datastore.getUpload(id);
    const imageId = storage.imageIdOf(upload);
    if (upload.size == null || upload.offset !== upload.size || imageId == null) return;
    if (await ingest.recorded(imageId)) nodeRequest(req).res?.setHeader(UPLOAD_IMAGE_ID_HEADER, imageId);
  }

  async function discard(id: string): Promise<void> {
    await datastore.remove(id).catch((error: unknown) => {
      if (error !== ERRORS.FILE_NOT_FOUND) log.warn({ err: error, uploadId: id }, 'could not delete a partial upload');
    });
  }

  const server = new Server({
    path: endpoint,
    datastore,
    locker,
    // Same origin as the web app: no CORS header at all.
    allowedOrigins: [],
    relativeLocation: true,
    ...storage.naming,
    // Errors tus meets itself in our JSON shape; the staging folder full or unwritable while tus creates or
    // writes an upload is 507, or 503 with Retry-After.
    async onResponseError(req, error) {
      return failure(req, storageFailure(error) ?? error);
    },
    async onIncomingRequest(req, id) {
      if (req.method === 'POST') return;
      // An upload belongs to the account that created it; to anyone else it does not exist.
      const upload = await datastore.getUpload(id);
      if (upload.metadata?.[OWNER_KEY] !== callerOf(req).accountId) throw new TusFailure(ERRORS.FILE_NOT_FOUND);
      if (req.method === 'HEAD') {
        await recoverUnstored(req, upload);
        await nameStoredImage(req, id);
      }
    },
    async onUploadCreate(req, upload) {
      try {
        const caller = callerOf(req);
        await ingest.prepare(caller, parseUploadRequest(upload.metadata), upload.size);
        const kept = Object.fromEntries(REQUEST_KEYS.map((key) => [key, upload.metadata?.[key] ?? null]));
        return { metadata: { ...kept, [OWNER_KEY]: caller.accountId } };
      } catch (error) {
        throw failure(req, error);
      }
    },
    async onUploadFinish(req, upload) {
      if (finishing.has(upload.id)) {
        throw failure(req, HttpError.conflict('The upload is complete and being stored'));
      }
      finishing.add(upload.id);
      try {
        // tus let go of the upload's lock after the last byte; it is held again while storing, so that no HEAD on
        // another process takes the upload for one whose server died before storing it (recoverUnstored).
        const result = await underLock(upload.id, async () => {
          const current = await datastore.getUpload(upload.id);
          // A HEAD elsewhere got in first and made it one byte short: the client sends that byte again.
          if (current.offset !== current.size) throw new TusFailure({ status_code: 423, body: BUSY_BODY });
          return store(req, upload);
        });
        // The file goes once tus has written the response (POST_FINISH), as the creation handler still reads it.
        return { status_code: 200, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(result) };
      } catch (error) {
        finishing.delete(upload.id);
        // Busy (423): the upload stays as it is, and the client retries.
        if (isBusy(error)) throw failure(req, error);
        await dropRefused(upload, error);
        throw failure(req, error);
      }
    },
  });
  server.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
    void discard(upload.id).finally(() => finishing.delete(upload.id));
  });

  return {
    /** Answers one tus request of `caller` on Node's request and response (the route has hijacked the reply). */
    handle(caller: Caller, req: IncomingMessage, res: Parameters<Server['handle']>[1]): Promise<void> {
      callers.set(req, caller);
      return server.handle(req, res);
    },
    /** Deletes the uploads older than the expiration; returns how many went. */
    sweepExpired: (): Promise<number> => storage.sweep(server, finishing),
  };
}

export type TusUploadServer = ReturnType<typeof createTusUploadServer>;
