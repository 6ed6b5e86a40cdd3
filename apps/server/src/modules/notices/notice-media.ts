import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { NOTICE_MEDIA_PATH } from './notice-html.ts';
import type { NoticeRepository } from './notice.repository.ts';

/** Pictures in a notice are screenshots and photos, not slides. */
export const MAX_NOTICE_MEDIA_BYTES = 10 * 1024 * 1024;

/** The picture formats a browser shows in a notice, told by their first bytes, not by what the upload claims. */
function pictureType(head: Buffer): string | null {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a') {
    return 'image/gif';
  }
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

async function readLimited(body: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `A picture in a notice may be at most ${limit / 1024 / 1024} MB.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Pictures pasted or inserted in a notice (part 3 §5): uploaded by the super user writing it before
 * the notice is saved, then served to any signed-in reader of the notice by their address.
 */
export function createNoticeMedia(deps: {
  notices: NoticeRepository;
  blobs: BlobStore;
  capabilities: Pick<CapabilitiesService, 'requireRoleCheck'>;
}) {
  return {
    async upload(caller: Caller, body: NodeJS.ReadableStream): Promise<{ id: string; url: string }> {
      await deps.capabilities.requireRoleCheck(caller, 'isSuperUser');
      const bytes = await readLimited(body, MAX_NOTICE_MEDIA_BYTES);
      const contentType = pictureType(bytes);
      if (!contentType) throw HttpError.validation({ file: 'Only PNG, JPEG, GIF and WebP pictures can be inserted.' });
      const blobKey = `notices/media/${randomUUID()}`;
      await deps.blobs.put(blobKey, Readable.from([bytes]), { size: bytes.length, contentType });
      const id = await deps.notices.addMedia({
        blobKey,
        contentType,
        sizeBytes: bytes.length,
        accountId: caller.accountId,
      });
      return { id, url: `${NOTICE_MEDIA_PATH}${id}` };
    },

    async open(id: string) {
      const media = isUuid(id) ? await deps.notices.findMedia(id) : undefined;
      if (!media) throw HttpError.notFound();
      return { ...media, body: await deps.blobs.get(media.blobKey) };
    },
  };
}

export type NoticeMedia = ReturnType<typeof createNoticeMedia>;
