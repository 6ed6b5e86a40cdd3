import type OpenSeadragon from 'openseadragon';

/** The part of an OpenSeadragon viewer this needs (a test hands in a stand-in). */
export type MotionViewer = Pick<OpenSeadragon.Viewer, 'addHandler' | 'removeHandler'> & {
  /** Null once the viewer is destroyed. */
  drawer: Pick<OpenSeadragon.Viewer['drawer'], 'setImageSmoothingEnabled'> | null;
};

/**
 * Draws the viewer's tiles without smoothing while it moves, and smooth again (redrawn) once it stops. Four panes
 * redraw every tile every frame while the leader moves, and on a software-rendered canvas (no GPU: virtual machines,
 * headless browsers) filtering each scaled tile is most of a frame; nearest-neighbour sampling for the few frames of a
 * motion is not seen. Returns the undo, which leaves a living viewer smooth.
 */
export function roughWhileMoving(viewer: MotionViewer): () => void {
  const rough = () => viewer.drawer?.setImageSmoothingEnabled(false);
  const smooth = () => viewer.drawer?.setImageSmoothingEnabled(true);
  viewer.addHandler('animation-start', rough);
  viewer.addHandler('animation-finish', smooth);
  return () => {
    viewer.removeHandler('animation-start', rough);
    viewer.removeHandler('animation-finish', smooth);
    smooth();
  };
}
