import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = fs.readFileSync(new URL('./global.css', import.meta.url), 'utf8');

/** The rules global.css applies only when the user's system asks for reduced motion. */
function reducedMotionBlock(): string {
  const start = css.indexOf('@media (prefers-reduced-motion: reduce)');
  if (start < 0) return '';
  let depth = 0;
  for (let index = css.indexOf('{', start); index < css.length; index += 1) {
    if (css[index] === '{') depth += 1;
    if (css[index] === '}' && --depth === 0) return css.slice(start, index + 1);
  }
  return '';
}

describe('global.css under prefers-reduced-motion', () => {
  it("stops the skeletons' shimmer, the loaders' dots and the progress bars' stripes", () => {
    const block = reducedMotionBlock();
    expect(block).toMatch(/animation: none !important;/);
    for (const selector of [
      '.mantine-Skeleton-root::before',
      '.mantine-Skeleton-root::after',
      '.mantine-Loader-root',
      '.mantine-Loader-root *',
    ]) {
      expect(block).toContain(`${selector},`);
    }
    expect(block).toContain('.mantine-Progress-section {');
  });
});
