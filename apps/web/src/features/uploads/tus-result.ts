import { ImageUploadResponseSchema, UPLOAD_IMAGE_ID_HEADER, type ImageUploadResponse } from '@pathology/contract';

/** What tus-js-client gives of the last answer of a finished upload. */
interface LastResponse {
  getBody(): string | undefined;
  getHeader(name: string): string | undefined;
}

/**
 * The image a finished tus upload made: the final PATCH's body, or, when that answer was lost and the resumed
 * upload's HEAD found it already stored, the id that HEAD names. Null when neither says (not an image at all).
 */
export function uploadedImage(response: LastResponse, filename: string): ImageUploadResponse | null {
  try {
    return ImageUploadResponseSchema.parse(JSON.parse(response.getBody() ?? ''));
  } catch {
    const id = response.getHeader(UPLOAD_IMAGE_ID_HEADER);
    const named = ImageUploadResponseSchema.safeParse({ id, filename });
    return named.success ? named.data : null;
  }
}
