import type { ImageStatus } from '@pathology/contract';
import { SlideThumbnail } from '../case-images/SlideThumbnail.tsx';

/**
 * The small thumbnail of an image row in the case list: GET images/{id}/data?type=SMALL once it scrolls into view,
 * or the status colour while the image is not available (spec part 1 §2, part 2 §2).
 */
export function ImageThumbnail({ imageId, status, alt }: { imageId: string; status: ImageStatus; alt: string }) {
  return <SlideThumbnail imageId={imageId} status={status} alt={alt} width={56} height={40} />;
}
