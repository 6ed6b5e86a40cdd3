import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Ignored by git; the run's server log and screenshots land here for CI artefacts and for people to look at.
 * E2E_RESULTS_DIR gives each of `npm test`'s concurrent shards a folder of its own: a shard's global setup empties
 * its screenshots, and each shard's server writes its own log.
 */
export const resultsDir = path.resolve(repositoryRoot, process.env.E2E_RESULTS_DIR ?? 'test-results');
export const screenshotsDir = path.join(resultsDir, 'screenshots');
export const webDist = path.join(repositoryRoot, 'apps/web/dist');
