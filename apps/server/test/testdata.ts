import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The shared folder of real scanner files (never committed: see its SOURCES.md). Looked for next to
 * the repository, as the workplace lays it out, or where PATHOLOGY_TESTDATA points.
 */
function findTestdata(): string {
  const candidates = [
    process.env.PATHOLOGY_TESTDATA,
    path.resolve(repositoryRoot, '../shared/testdata'),
    '/work/shared/testdata',
  ].filter((candidate): candidate is string => candidate != null && candidate !== '');
  const found = candidates.find((candidate) => existsSync(path.join(candidate, 'slides')));
  if (found == null) {
    throw new Error(`Test slides not found (looked in ${candidates.join(', ')}); set PATHOLOGY_TESTDATA`);
  }
  return found;
}

export const TESTDATA_DIR = findTestdata();

/** A real slide of the shared test data, e.g. slidePath('CMU-1-Small-Region.svs'). */
export function slidePath(name: string): string {
  return path.join(TESTDATA_DIR, 'slides', name);
}
