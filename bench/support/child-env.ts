/**
 * VIPSHOME as it was before sharp loaded. sharp's bundled libvips sets VIPSHOME to its own build prefix
 * (/target) when it initialises; a system `vips` started afterwards with that environment looks for its
 * modules there and loses openslideload. Import this module before anything that loads sharp.
 */
export const vipsHomeBeforeSharp: string | undefined = process.env.VIPSHOME;

/**
 * Puts VIPSHOME back for child processes; returns the value sharp had set, or null when nothing changed.
 */
export function restoreVipsHome(): string | null {
  const current = process.env.VIPSHOME;
  if (current === vipsHomeBeforeSharp) return null;
  if (vipsHomeBeforeSharp === undefined) delete process.env.VIPSHOME;
  else process.env.VIPSHOME = vipsHomeBeforeSharp;
  return current ?? '(unset)';
}
