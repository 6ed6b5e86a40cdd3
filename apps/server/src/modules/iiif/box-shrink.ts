export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/**
 * Shrinks raw 8-bit pixels by a whole factor, each output pixel the mean of the block it covers (a
 * partial block at the right or bottom edge: of its pixels only). This is what the pyramid's levels are
 * (dzsave halves each level by 2×2 means, sizes rounded up), so tiles cut from an original's full
 * resolution match the pyramid's to ~2/255, where an interpolating kernel (cubic, Lanczos) is ~4–5/255 off.
 */
export function boxShrink(image: RawImage, factor: number): RawImage {
  const { data, width, height, channels } = image;
  const outWidth = Math.ceil(width / factor);
  const outHeight = Math.ceil(height / factor);
  const out = Buffer.allocUnsafe(outWidth * outHeight * channels);
  const sums = new Uint32Array(outWidth * channels);
  for (let outY = 0; outY < outHeight; outY++) {
    sums.fill(0);
    const top = outY * factor;
    const rows = Math.min(factor, height - top);
    for (let y = top; y < top + rows; y++) {
      let at = y * width * channels;
      for (let x = 0; x < width; x++) {
        const cell = Math.floor(x / factor) * channels;
        for (let c = 0; c < channels; c++) sums[cell + c]! += data[at++]!;
      }
    }
    let to = outY * outWidth * channels;
    for (let outX = 0; outX < outWidth; outX++) {
      const count = rows * Math.min(factor, width - outX * factor);
      for (let c = 0; c < channels; c++) out[to++] = Math.round(sums[outX * channels + c]! / count);
    }
  }
  return { data: out, width: outWidth, height: outHeight, channels };
}
