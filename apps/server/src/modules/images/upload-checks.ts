import fs from 'node:fs/promises';
import path from 'node:path';
import { ATTACHMENT_EXTENSIONS, IMAGE_MESSAGES, IMAGE_UPLOAD_EXTENSIONS } from '@pathology/contract';
import { HEAD_BYTES, HeadCheck, judgeHead, type HeadCheckOptions } from '../../http/head-check.ts';
import { HttpError } from '../../http/http-error.ts';
import { kindMatchesExtension, sniffKind } from '../../imaging/index.ts';

/** The lowercase extension of an image upload; 415 with the spec's message when it is not an image type. */
export function imageExtension(filename: string): string {
  const extension = path.extname(filename).toLowerCase();
  if ((IMAGE_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) return extension;
  const known = (ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension);
  throw new HttpError(415, known ? IMAGE_MESSAGES.unsupportedFileType : IMAGE_MESSAGES.unknownExtension);
}

/** What the first bytes of an image upload must be: what its extension promises (not a PNG named .svs). */
function imageHeadRules(extension: string): HeadCheckOptions {
  return {
    accepts: (head) => kindMatchesExtension(sniffKind(head), extension),
    refusal: () => new HttpError(415, IMAGE_MESSAGES.contentDoesNotMatchExtension),
    empty: () => new HttpError(422, IMAGE_MESSAGES.emptyFile),
  };
}

/** Fails the stream when the first bytes are not what the image's extension promises. */
export function imageContentCheck(extension: string): HeadCheck {
  return new HeadCheck(imageHeadRules(extension));
}

/** The check of imageContentCheck on the first HEAD_BYTES (or fewer) of a file received whole. */
export function checkImageHead(head: Buffer, extension: string): void {
  judgeHead(head, imageHeadRules(extension));
}

/** The check of imageContentCheck on a file already received whole (a resumable upload). */
export async function checkImageFile(file: string, extension: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    checkImageHead(buffer.subarray(0, bytesRead), extension);
  } finally {
    await handle.close();
  }
}
