import path from 'node:path';
import { uploadFromBrowser } from '../support/browser-upload.ts';
import { sweepChunkSizes } from '../support/browser-sweep.ts';
import { bulkNames, writeSlide } from '../support/upload-client.ts';
import type { TestFile } from './test-file.ts';

const BULK_FILES = 10;
const MiB = 1024 * 1024;

const line = (what: string, bytes: number, seconds: number) =>
  `  ${what}: ${seconds.toFixed(2)} s, ${(bytes / 1e6 / seconds).toFixed(0)} MB/s`;

/**
 * The whole app (`npm start`: api and worker in one process, the built web app) in Chromium: the Add Images dialog
 * with the test file and the bulk-upload screen with BULK_FILES generated files (--app-dialog), and tus-js-client
 * per chunk size (--sweep-mib). Prints nothing when neither was asked for.
 */
export async function printAppFigures(
  options: { appDialog: boolean; bulkBytes: number; sweepBytes: number[] },
  test: TestFile,
  root: string,
): Promise<void> {
  const lines: string[] = [];
  if (options.appDialog) {
    const bulkSlide = path.join(root, 'bulk.tif');
    await writeSlide(bulkSlide, options.bulkBytes);
    const bulk = await bulkNames(path.join(root, 'bulk'), bulkSlide, BULK_FILES);
    const figures = await uploadFromBrowser(test.file, bulk);
    lines.push(line('Add Images dialog', test.size, figures.dialogSeconds));
    lines.push(
      line(`bulk upload of ${BULK_FILES} generated files`, options.bulkBytes * BULK_FILES, figures.bulkSeconds!),
    );
  }
  if (options.sweepBytes.length > 0) {
    for (const { chunkBytes, seconds } of await sweepChunkSizes(test.file, options.sweepBytes)) {
      lines.push(line(`tus-js-client, ${chunkBytes / MiB} MiB chunks`, test.size, seconds));
    }
  }
  if (lines.length === 0) return;
  console.log(`\nThe whole app in Chromium (npm start: api and worker in one process)\n${lines.join('\n')}`);
}
