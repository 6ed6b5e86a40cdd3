import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Image, ImageLayerResource } from '@pathology/contract';
import { createDatabase } from '../../apps/server/src/db/client.ts';
import { factories } from '../../apps/server/test/factories.ts';
import { slidePath } from '../../apps/server/test/testdata.ts';
import { enlargedSlide } from '../support/enlarged-slide.ts';
import { Client, TokenSource } from './client.ts';
import type { Recorder } from './stats.ts';
import type { SoakTarget } from './target.ts';

/** A converted slide viewers may open. */
export interface Slide {
  caseId: string;
  imageId: string;
  layer: ImageLayerResource;
}

/** What the run works on: its own group, accounts and cases, and slides that grow as uploads convert. */
export interface World {
  viewers: Client[];
  writer: Client;
  /** Cases the uploads go to, one per upload slot. */
  uploadCases: string[];
  /** Slides open to viewers; converted uploads join them. */
  slides: Slide[];
  /** The slide that receives the detection imports and the drawings and notes. */
  target: Slide;
  caseNumberPrefix: string;
}

/** Cases in the group, so the case list and its search have pages to go through. */
const CASES = 120;
/** Accounts the viewers sign in as, shared in turns (more would only add token signing). */
const VIEWER_ACCOUNTS = 10;
const CONVERSION_TIMEOUT_MS = 300_000;
export const SETUP_SLIDE = slidePath('CMU-1-Small-Region.svs');
/**
 * Nuclei per copy of the setup slide's 6.6 megapixels where the target slide is enlarged for the imports: the
 * detections bench's density (1,000,000 over the slide replicated 8 × 8), about one nucleus per 420 pixels. Laid on
 * the setup slide alone, 200,000 would be one per 33 pixels, a full-resolution tile painting ~8,000 outlines.
 */
const NUCLEI_PER_COPY = 15_625;

/** The image's first layer once it is available; throws when its conversion fails. */
export async function whenConverted(client: Client, imageId: string, until: number): Promise<Slide | null> {
  while (Date.now() < until) {
    const answer = await client.call('API read', 'GET', `/api/v1/images/${imageId}`);
    if (answer.status === 200) {
      const image = answer.json<Image>();
      if (image.status === 'available' && image.imageLayerResources[0] != null) {
        return { caseId: image.caseId, imageId, layer: image.imageLayerResources[0] };
      }
      if (image.status === 'process_failed' || image.status === 'upload_failed') return null;
    }
    await sleep(1_000);
  }
  return null;
}

/**
 * Group, accounts and cases straight in the database; two slides uploaded through the API and converted, the target
 * enlarged to hold `detections` nuclei at a tissue's density.
 */
export async function buildWorld(
  server: SoakTarget,
  viewerCount: number,
  recorder: Recorder,
  detections: number,
): Promise<World> {
  const database = createDatabase(server.databaseUrl, { max: 2 });
  const prefix = `SOAK-${Date.now().toString(36).toUpperCase()}`;
  let emails: string[];
  let caseIds: string[];
  try {
    const make = factories(database.db);
    const group = await make.organization({ downloadDrawingsEnabled: true });
    emails = [];
    for (let i = 0; i <= VIEWER_ACCOUNTS; i += 1) {
      const account = await make.account({ email: `soak-${i}-${prefix.toLowerCase()}@example.test` });
      await make.join(account, group, 'member');
      emails.push(account.email);
    }
    caseIds = [];
    for (let i = 0; i < CASES; i += 1) {
      caseIds.push(
        await make.case({ ownerOrganizationId: group, caseNumber: `${prefix}-${String(i).padStart(4, '0')}` }),
      );
    }
  } finally {
    await database.close();
  }
  const client = (email: string) =>
    new Client(server.baseUrl, new TokenSource(server.databaseUrl, server.baseUrl, email), recorder);
  const [writerEmail, ...viewerEmails] = emails;
  const writer = client(writerEmail!);
  const viewerClients = viewerEmails.map(client);
  const replicate = Math.ceil(Math.sqrt(detections / NUCLEI_PER_COPY));
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-soak-slide-'));
  let slides: Slide[];
  try {
    // The target, which receives the imports, holds them at a tissue's density; the other is the setup slide.
    const files = [replicate > 1 ? await enlargedSlide(scratch, replicate) : SETUP_SLIDE, SETUP_SLIDE];
    slides = await Promise.all(
      caseIds.slice(0, 2).map(async (caseId, at) => {
        const filename = `setup${path.extname(files[at]!)}`;
        const query = new URLSearchParams({ caseId, filename }).toString();
        const answer = await writer.call('API write', 'POST', `/api/v1/images?${query}`, {
          body: await fs.readFile(files[at]!),
          type: 'application/octet-stream',
        });
        if (answer.status !== 201) throw new Error(`the setup slide was refused: ${answer.status} ${answer.text}`);
        const slide = await whenConverted(writer, answer.json<Image>().id, Date.now() + CONVERSION_TIMEOUT_MS);
        if (slide == null) throw new Error('the setup slide did not convert');
        return slide;
      }),
    );
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
  return {
    viewers: Array.from({ length: viewerCount }, (_, i) => viewerClients[i % viewerClients.length]!),
    writer,
    uploadCases: caseIds.slice(2),
    slides,
    target: slides[0]!,
    caseNumberPrefix: prefix,
  };
}
