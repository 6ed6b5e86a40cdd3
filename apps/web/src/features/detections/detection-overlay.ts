import type OpenSeadragon from 'openseadragon';
import { roughWhileMoving } from '../compare/motion-quality.ts';
import { tileHeaders } from '../viewer/osd-viewer.ts';
import { loadRestingLevelOnly, type LoadingItem } from './detection-loading.ts';
import type { detectionTileSource } from './detection-tiles.ts';

type TileSource = ReturnType<typeof detectionTileSource>;

/**
 * The detections as a tiled image above the slide. A new style replaces the old picture only once it is fully
 * drawn, so toggling a class never blinks; when the slide's layer switch clears the world, the picture comes back.
 */
export class DetectionOverlay {
  private current: OpenSeadragon.TiledImage | null = null;
  private source: TileSource | null = null;
  private readonly ours = new WeakSet<OpenSeadragon.TiledImage>();
  /** Per item of ours on the viewer, the undo of its loading rule. */
  private readonly loading = new Map<OpenSeadragon.TiledImage, () => void>();
  private destroyed = false;
  /** Undoes drawing without smoothing while the view moves; set while detections are shown. */
  private smoothAgain: (() => void) | null = null;
  private readonly onRemove = (event: { item: OpenSeadragon.TiledImage }) => {
    this.loading.get(event.item)?.();
    this.loading.delete(event.item);
    if (event.item !== this.current || this.ours.has(event.item)) return;
    // Removed by someone else (a layer switch): put it back on top.
    this.current = null;
    if (this.source) this.add(this.source);
  };

  constructor(private readonly viewer: OpenSeadragon.Viewer) {
    viewer.world.addHandler('remove-item', this.onRemove);
  }

  show(source: TileSource | null): void {
    this.source = source;
    // Filtering every scaled tile of a second, translucent layer is most of a frame on a canvas drawn by the CPU
    // (headless browsers, virtual machines); nearest-neighbour sampling for the frames of a motion is not seen.
    if (source) {
      this.smoothAgain ??= roughWhileMoving(this.viewer);
      this.add(source);
    } else {
      this.stopRough();
      this.remove(this.current);
    }
  }

  private stopRough(): void {
    this.smoothAgain?.();
    this.smoothAgain = null;
  }

  destroy(): void {
    this.destroyed = true;
    this.stopRough();
    this.viewer.world.removeHandler('remove-item', this.onRemove);
    for (const undo of this.loading.values()) undo();
    this.loading.clear();
    this.remove(this.current);
  }

  private remove(item: OpenSeadragon.TiledImage | null): void {
    if (item === null) return;
    if (item === this.current) this.current = null;
    this.ours.add(item);
    this.viewer.world.removeItem(item);
  }

  private add(source: TileSource): void {
    void tileHeaders().then((headers) => {
      if (this.destroyed || source !== this.source) return;
      const options: OpenSeadragon.TileSourceSpecifier = {
        tileSource: source,
        index: this.viewer.world.getItemCount(),
        loadTilesWithAjax: true,
        ajaxHeaders: headers,
        success: (event) => {
          const { item } = event as unknown as { item: OpenSeadragon.TiledImage };
          if (this.destroyed || source !== this.source) {
            this.remove(item);
            return;
          }
          // OpenSeadragon's types leave out the TiledImage's loading settings.
          this.loading.set(item, loadRestingLevelOnly(this.viewer, item as unknown as LoadingItem, source));
          const previous = this.current;
          this.current = item;
          item.addHandler('fully-loaded-change', () => this.remove(previous));
          if (item.getFullyLoaded()) this.remove(previous);
        },
      };
      this.viewer.addTiledImage(options);
    });
  }
}
