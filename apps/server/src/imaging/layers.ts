import { sharp } from './sharp-setup.ts';

export interface LayerMetadata {
  the_z: number | null;
  position_z: number | null;
  position_z_unit: string | null;
}

export interface ConvertedLayer {
  layerNumber: number;
  width: number;
  height: number;
  pyramidPath: string;
  metadata: LayerMetadata;
}

export interface AssociatedPicture {
  kind: 'label' | 'macro' | 'thumbnail';
  path: string;
  width: number;
  height: number;
}

export const FLAT_LAYER: LayerMetadata = { the_z: null, position_z: null, position_z_unit: null };

/** Size as written, read back from the file rather than predicted from the input and its orientation. */
export async function imageSize(filePath: string): Promise<{ width: number; height: number }> {
  const { width, height } = await sharp(filePath).metadata();
  return { width, height };
}
