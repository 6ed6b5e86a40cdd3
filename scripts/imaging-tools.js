// @ts-check
import { execFileSync, spawnSync } from 'node:child_process';

/**
 * Slides from scanners (.svs, .ndpi) are read by OpenSlide through the `vips` command line, which
 * come from Debian's packages. `npm start` installs them when it can (root with apt-get) and
 * otherwise says exactly what to run; without them only OpenSlide formats fail to convert.
 */
const PACKAGES = ['libvips-tools', 'openslide-tools'];

/** @param {string[]} commands */
function has(...commands) {
  return (
    spawnSync('sh', ['-c', commands.map((command) => `command -v ${command}`).join(' && ')], { stdio: 'ignore' })
      .status === 0
  );
}

export function ensureImagingTools() {
  if (has('vips', 'openslide-show-properties')) return;
  const command = `apt-get install -y ${PACKAGES.join(' ')}`;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && has('apt-get')) {
    console.log(`Installing the slide readers: ${command}`);
    try {
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...PACKAGES], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...PACKAGES], { stdio: 'inherit' });
    }
  } else {
    console.warn(`Slide readers missing: .svs and .ndpi uploads will fail to convert until you run: sudo ${command}`);
  }
}
