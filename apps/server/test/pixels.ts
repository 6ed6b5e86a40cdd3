import sharp from 'sharp';
import { expect } from 'vitest';

/**
 * The mean absolute difference of two pictures of the same size, per sample (0–255): the project's fidelity rule
 * holds a tile within 3 of its reference.
 */
export async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all(
    [a, b].map((body) => sharp(body).raw().toBuffer({ resolveWithObject: true })),
  );
  expect([left!.info.width, left!.info.height]).toEqual([right!.info.width, right!.info.height]);
  let sum = 0;
  for (let i = 0; i < left!.data.length; i++) sum += Math.abs(left!.data[i]! - right!.data[i]!);
  return sum / left!.data.length;
}
