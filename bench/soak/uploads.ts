import fs from 'node:fs/promises';
import path from 'node:path';
import { Upload, type HttpRequest } from 'tus-js-client';
import { ImageSearchResponseSchema } from '@pathology/contract';
import { slidePath } from '../../apps/server/test/testdata.ts';
import { uploadedImage } from '../../apps/web/src/features/uploads/tus-result.ts';
import { TUS_CHUNK_SIZE, TUS_RETRY_DELAYS, tusMayRetry } from '../../apps/web/src/features/uploads/tus-settings.ts';
import { withRetries, type Client } from './client.ts';
import type { Recorder } from './stats.ts';
import { whenConverted, type Slide } from './world.ts';

/** The real slides of the shared test data, uploaded in turns. */
const FILES = ['CMU-1-Small-Region.svs', 'multi-channel-z-series.ome.tif', 'smalltif-16bit.tif'];

/** One upload and what became of it. */
export interface UploadRecord {
  filename: string;
  /** The last PATCH was answered: the server has the whole file. */
  acknowledged: boolean;
  /** Not acknowledged, yet found among the images at the end: the server kept it but its answer was lost. */
  foundUnacknowledged: boolean;
  imageId: string | null;
  converted: boolean;
  error: string | null;
}

/** Sends a file with tus as the web app does (its chunk size, retries and statuses), timing every request. */
function tusUpload(client: Client, recorder: Recorder, caseId: string, filename: string, file: Buffer) {
  const started = new Map<HttpRequest, number>();
  const record = (request: HttpRequest, status: number) => {
    const began = started.get(request);
    if (began == null) return;
    started.delete(request);
    const method = request.getMethod();
    recorder.record({
      kind: method === 'PATCH' ? 'upload chunk' : method === 'HEAD' ? 'API read' : 'API write',
      method,
      path: new URL(request.getURL()).pathname,
      status,
      ms: performance.now() - began,
      at: Date.now(),
    });
  };
  return new Promise<string>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: `${client.baseUrl}/api/v1/uploads/images`,
      chunkSize: TUS_CHUNK_SIZE,
      retryDelays: [...TUS_RETRY_DELAYS],
      metadata: { caseId, filename, displayName: filename, metadata: '{}' },
      onBeforeRequest: async (request) => {
        request.setHeader('Authorization', await client.tokens.header());
        started.set(request, performance.now());
      },
      onAfterResponse: (request, response) => record(request, response.getStatus()),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        if (error.originalRequest != null && status === 0) record(error.originalRequest, 0);
        return tusMayRetry(status, error.originalRequest?.getMethod());
      },
      onError: (error) => reject(error),
      onSuccess: ({ lastResponse }) => {
        const image = uploadedImage(lastResponse, filename);
        if (image != null) resolve(image.id);
        else reject(new Error(`upload ${filename} finished with no image: ${lastResponse.getStatus()}`));
      },
    });
    upload.start();
  });
}

/** The image an unacknowledged upload may have made, by its file name (unique to the run). */
async function findImage(client: Client, filename: string): Promise<string | null> {
  const answer = await withRetries(() =>
    client.send('API read', 'POST', '/api/v1/images/search', {
      query: [{ field: 'filename', operator: 'is', value: filename }],
    }),
  );
  return answer.status === 200 ? (ImageSearchResponseSchema.parse(answer.json()).data[0]?.id ?? null) : null;
}

/**
 * `slots` uploads at once, each followed to its conversion before the slot starts the next, until `until`; converted
 * slides join `slides`. Resolves when the last one has converted or `convertBy` has passed.
 */
export async function runUploads(options: {
  client: Client;
  recorder: Recorder;
  caseIds: readonly string[];
  /** Begins every file name, so that an upload is found by it. */
  prefix: string;
  slides: Slide[];
  until: number;
  convertBy: number;
}): Promise<UploadRecord[]> {
  const files = await Promise.all(FILES.map((name) => fs.readFile(slidePath(name))));
  const records: UploadRecord[] = [];
  let next = 0;
  const slot = async (caseId: string) => {
    while (Date.now() < options.until) {
      const index = next++;
      const filename = `${options.prefix}-${index}-${path.basename(FILES[index % FILES.length]!)}`;
      const record: UploadRecord = {
        filename,
        acknowledged: false,
        foundUnacknowledged: false,
        imageId: null,
        converted: false,
        error: null,
      };
      records.push(record);
      try {
        record.imageId = await tusUpload(
          options.client,
          options.recorder,
          caseId,
          filename,
          files[index % FILES.length]!,
        );
        record.acknowledged = true;
      } catch (error) {
        record.error = String(error);
        record.imageId = await findImage(options.client, filename);
        record.foundUnacknowledged = record.imageId != null;
        if (record.imageId == null) continue;
      }
      const slide = await whenConverted(options.client, record.imageId, options.convertBy);
      record.converted = slide != null;
      if (slide != null) options.slides.push(slide);
      else record.error = `${record.error ?? ''} not converted`.trim();
    }
  };
  await Promise.all(options.caseIds.map(slot));
  return records;
}
