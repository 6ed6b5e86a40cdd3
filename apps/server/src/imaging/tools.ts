import { runTool } from './run-tool.ts';

export interface ImagingTools {
  vips: boolean;
  openslide: boolean;
  vipsVersion: string | null;
}

let detected: Promise<ImagingTools> | undefined;

/** Probes once per process whether `vips` is on PATH and was built with openslideload. */
export function detectImagingTools(): Promise<ImagingTools> {
  detected ??= probe();
  return detected;
}

async function probe(): Promise<ImagingTools> {
  try {
    const version = await runTool('vips', ['--version'], { timeoutMs: 10_000 });
    if (version.exitCode !== 0) return { vips: false, openslide: false, vipsVersion: null };
    // `vips -l` lists every operation class; openslideload is only there when libvips links OpenSlide.
    const classes = await runTool('vips', ['-l', 'foreign'], { timeoutMs: 10_000 });
    return {
      vips: true,
      openslide: classes.exitCode === 0 && /\bopenslideload\b/.test(classes.stdout),
      vipsVersion: /vips-(\S+)/.exec(version.stdout)?.[1] ?? (version.stdout.trim() || null),
    };
  } catch {
    return { vips: false, openslide: false, vipsVersion: null };
  }
}
