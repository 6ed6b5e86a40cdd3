import type { DeclaredScale } from '../../imaging/index.ts';
import type { ImageRequest } from './iiif-params.ts';
import type { LevelSize } from './original-plan.ts';
import type { TileCache } from './tile-cache.ts';
import type { RenderedImage } from './tile-render.ts';

/**
 * An original as it is seen before its conversion ends, whatever its format: the levels its pyramid will
 * have (info.json is the same before and after the hand-over), the scale it declares, and its tiles.
 */
export interface ServedOriginal {
  levels: LevelSize[];
  scale: DeclaredScale;
  render(request: ImageRequest, tiles: TileCache): Promise<RenderedImage>;
}
