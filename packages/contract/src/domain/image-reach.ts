/** Width and height of an image in full-resolution pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * How far past an image's edges a position sent to the server may lie: the image's larger side. Room for what a
 * zoomed-out viewer shows beside a narrow slide (the view is then several slide widths wide), while numbers such as
 * 1e300, which make every measurement and query meaningless (and overflow PostgreSQL's integers), are refused.
 */
export const imageReach = (image: ImageSize) => Math.max(image.width, image.height);

/** Whether [x, y] lies further past the image's edges than its reach (or is no finite number). */
export function beyondImageReach([x, y]: readonly [number, number], image: ImageSize): boolean {
  // No closure per call: checked for each of a drawing's 100,000 points, and the server's bundle names each closure.
  const reach = imageReach(image);
  return !(x >= -reach && x <= image.width + reach && y >= -reach && y <= image.height + reach);
}

/** Whether any part of the region lies further past the image's edges than its reach. */
export function regionBeyondImageReach(
  region: { x: number; y: number; width: number; height: number },
  image: ImageSize,
): boolean {
  return (
    beyondImageReach([region.x, region.y], image) ||
    beyondImageReach([region.x + region.width, region.y + region.height], image)
  );
}
