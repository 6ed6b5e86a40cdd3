import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Ignored by git; the run's server log and screenshots land here for CI artefacts and for people to look at. */
export const resultsDir = path.join(repositoryRoot, 'test-results');
export const screenshotsDir = path.join(resultsDir, 'screenshots');
export const webDist = path.join(repositoryRoot, 'apps/web/dist');
