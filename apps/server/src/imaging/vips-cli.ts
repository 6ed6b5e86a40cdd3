import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { remainingMs, type ConvertContext } from './context.ts';
import { ToolKilledError, UnsupportedImageError } from './errors.ts';
import { GOOGLE_LAYOUT_ARGS, type BaseTiles } from './google-tiles.ts';
import { TILE_SIZE, TILE_SUFFIX, writeTiledPyramid } from './pyramid.ts';
import { runTool, type FileRange, type ToolResult } from './run-tool.ts';

// vips parses `[options]` and other characters in file names, so it only ever sees this fixed name in workDir.
export const SOURCE_NAME = 'source.tif';

/** Links the upload into workDir under a name vips cannot misread (once); the caller owns workDir and cleans it. */
export async function linkSource(context: ConvertContext): Promise<void> {
  await symlink(path.resolve(context.sourcePath), path.join(context.workDir, SOURCE_NAME)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
}

export interface VipsOptions {
  /** What the tool reads as `stdin`. */
  stdin?: FileRange;
  /**
   * Whether the run needs none of the loaders libvips keeps in loadable modules (OpenSlide, ImageMagick, Poppler,
   * HEIF, JPEG XL): vips then starts without loading them and the hundred libraries they link, ~30 ms of CPU less.
   */
  builtinOnly?: boolean;
}

/**
 * libvips looks for its modules under VIPSHOME's lib folder: a prefix that holds none, never created, so none loads.
 * Its only other use, message translations, falls back to English.
 */
const NO_MODULES_PREFIX = 'no-vips-modules';

/**
 * Runs the vips command line in workDir within the conversion's time limit, at the conversion's niceness.
 */
export async function vips(
  context: ConvertContext,
  command: 'vips' | 'vipsheader',
  args: string[],
  { stdin, builtinOnly = false }: VipsOptions = {},
): Promise<ToolResult> {
  const result = await runTool(command, args, {
    timeoutMs: remainingMs(context),
    signal: context.signal,
    cwd: context.workDir,
    niceness: context.niceness,
    ...(stdin ? { stdin } : {}),
    ...(builtinOnly ? { environment: { VIPSHOME: path.join(context.workDir, NO_MODULES_PREFIX) } } : {}),
  });
  if (result.exitCode === 0) return result;
  // Killed from outside (the out-of-memory killer, an operator): nothing is known about the file, so another attempt.
  if (result.signal != null) throw new ToolKilledError(`${command} was stopped by ${result.signal}`);
  const lines = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // vips warns once per tile it could not read before it says why; the why is what the message needs.
  const reasons = lines.filter((line) => !line.includes('VIPS-WARNING'));
  const message =
    [...new Set(reasons.length > 0 ? reasons : lines)].slice(0, 3).join(' ') || `exit code ${result.exitCode}`;
  // Resource exhaustion may pass on a retry; anything else is the file itself and will fail the same way again.
  if (/no space|ENOSPC|out of memory|cannot allocate|too many open files/i.test(message)) {
    throw new Error(`${command} failed: ${message}`);
  }
  throw new UnsupportedImageError(`OpenSlide/vips could not read the image: ${message}`);
}

/**
 * Layer 0's pyramid from `input` (the linked source with vips load options, e.g. `source.tif[rgb]`, or `stdin`
 * fed from `stdin`), tiled by the vips command line: its JPEG codec (the system's libjpeg-turbo) decodes and encodes
 * these tiles faster than the one bundled with sharp. Full-resolution tiles `base` gives are stored instead of dzsave's.
 * `builtinOnly` as for vips().
 */
export function writeVipsPyramid(
  context: ConvertContext,
  input: string,
  { base, ...options }: { base?: BaseTiles } & VipsOptions = {},
): Promise<string> {
  return writeTiledPyramid(
    context,
    0,
    async (output) => {
      await vips(
        context,
        'vips',
        [
          'dzsave',
          input,
          path.basename(output),
          '--container',
          'zip',
          ...GOOGLE_LAYOUT_ARGS,
          '--tile-size',
          String(TILE_SIZE),
          '--suffix',
          TILE_SUFFIX,
        ],
        options,
      );
      return null;
    },
    { container: 'zip', ...(base ? { base } : {}) },
  );
}
