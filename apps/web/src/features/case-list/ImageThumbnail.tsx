import type { ImageStatus } from '@pathology/contract';
import { SlideThumbnail } from '../case-images/SlideThumbnail.tsx';

/**
 * The small thumbnail of an image row in the case list: GET images/{id}/data?type=SMALL once it scrolls into view,
 * or the status colour while the image is not viewable (spec part 1 §2, part 2 §2).
 */
export function ImageThumbnail({
  imageId,
  status,
  viewable,
  alt,
}: {
  imageId: string;
  status: ImageStatus;
  viewable: boolean;
  alt: string;
}) {
  return <SlideThumbnail imageId={imageId} status={status} viewable={viewable} alt={alt} width={56} height={40} />;
}
