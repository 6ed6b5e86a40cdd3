import type OpenSeadragon from 'openseadragon';
import { useEffect, useState } from 'react';
import { currentImageZoom } from './osd-viewer.ts';

/** The viewer's current image zoom (screen pixels per image pixel), followed once per frame while it changes. */
export function useImageZoom(viewer: OpenSeadragon.Viewer | null): number | undefined {
  const [imageZoom, setImageZoom] = useState<number | undefined>(undefined);

  useEffect(() => {
    if (!viewer) return undefined;
    let frame = 0;
    const update = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setImageZoom(currentImageZoom(viewer));
      });
    };
    viewer.addHandler('viewport-change', update);
    viewer.addHandler('open', update);
    viewer.addHandler('resize', update);
    update();
    return () => {
      cancelAnimationFrame(frame);
      viewer.removeHandler('viewport-change', update);
      viewer.removeHandler('open', update);
      viewer.removeHandler('resize', update);
    };
  }, [viewer]);

  return imageZoom;
}
