import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { tiffToDicomSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { dicomUids } from './dicom-uids.ts';
import { startViewerPage, type ViewerPage } from './viewer-page.test-support.ts';

const require = createRequire(import.meta.url);
/** What the viewer is given, and what the test compares: a square of level pixels in the middle of its viewport. */
const VIEWPORT = 512;
const REGION = 256;

interface WholeSlideImage {
  ImageType: string[];
  TotalPixelMatrixColumns: number;
  TotalPixelMatrixRows: number;
}

interface OlMap {
  getView(): {
    setRotation(angle: number): void;
    setResolution(resolution: number): void;
    setCenter(at: number[]): void;
  };
  once(type: string, listener: () => void): void;
  render(): void;
}

/** What the page's scripts give (dicomweb-client and dicom-microscopy-viewer as UMD globals; neither has types here). */
interface PageGlobals {
  DICOMwebClient: {
    api: { DICOMwebClient: new (options: object) => { retrieveSeriesMetadata(o: object): Promise<object[]> } };
  };
  dicomMicroscopyViewer: {
    metadata: { VLWholeSlideMicroscopyImage: new (options: { metadata: object }) => WholeSlideImage };
    viewer: {
      VolumeImageViewer: new (options: { client: unknown; metadata: WholeSlideImage[] }) => {
        render(options: { container: unknown }): void;
        getMap(): OlMap;
      };
    };
  };
  document: { getElementById(id: string): unknown };
  viewer: { getMap(): OlMap };
}

interface Shown {
  /** The level's zoom factor (base pixels per level pixel), as the viewer's pyramid has it. */
  factor: number;
  /** The level's size in its own pixels. */
  width: number;
  height: number;
}

/**
 * dicom-microscopy-viewer, the library Slim draws slides with, run in Chromium against our DICOMweb root from a
 * page of another origin (CORS, bearer token): what it draws of a slide at three pyramid levels must be what our
 * IIIF tiles show of the same region.
 */
describe('dicom-microscopy-viewer reads our DICOMweb', () => {
  const origins: string[] = [];
  let page: ViewerPage;
  // Before the app is made: the page's origin is one of the DICOMweb CORS origins.
  beforeAll(async () => {
    const viewer = require.resolve('dicom-microscopy-viewer');
    // The bundle starts its decoding workers as modules from the site's /static/js/, and they load their
    // WebAssembly codecs from there: the package's module build of the worker is the one that runs as a module.
    const workers = path.join(path.dirname(viewer), 'dynamic-import');
    const codecs = (await fs.readdir(workers)).filter((file) => file.endsWith('.wasm'));
    page = await startViewerPage({
      '/viewer.js': viewer,
      '/client.js': require.resolve('dicomweb-client/build/dicomweb-client.js'),
      '/static/js/dataLoader.worker.min.js': path.join(workers, 'dataLoader.worker.min.js'),
      ...Object.fromEntries(codecs.map((file) => [`/static/js/${file}`, path.join(workers, file)])),
    });
    origins.push(page.origin);
  });
  const t = useTestApp({ dicomwebCorsOrigins: origins });
  let root: string;
  let browser: Browser;
  let caseId: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address == null || typeof address === 'string') throw new Error('the app listens on no port');
    root = `http://127.0.0.1:${address.port}/dicomweb`;
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-45-V' });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--force-color-profile=srgb'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await page?.close();
  });

  /** Opens the slide's series in the viewer, as Slim does: its metadata, then a VolumeImageViewer over it. */
  async function open(imageId: string): Promise<{ tab: Page; levels: Shown[]; errors: string[] }> {
    const tab = await browser.newPage({ viewport: { width: VIEWPORT + 64, height: VIEWPORT + 64 } });
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await tab.goto(`${page.origin}/`);
    const token = (await t.auth('viewer')).authorization.replace(/^Bearer /, '');
    const levels = await tab.evaluate(
      async ({ root, token, study, series }) => {
        const page = globalThis as never as PageGlobals;
        const { api } = page.DICOMwebClient;
        const dmv = page.dicomMicroscopyViewer;
        const client = new api.DICOMwebClient({ url: root, headers: { Authorization: `Bearer ${token}` } });
        const metadata = await client.retrieveSeriesMetadata({ studyInstanceUID: study, seriesInstanceUID: series });
        const images = metadata
          .map((entry) => new dmv.metadata.VLWholeSlideMicroscopyImage({ metadata: entry }))
          // Slim adds the THUMBNAIL too, which this viewer then draws instead of the coarser VOLUME levels: that is
          // the scanner's own picture, not our pyramid, so our IIIF tiles are no reference for it.
          .filter((image) => image.ImageType[2] === 'VOLUME');
        const viewer = new dmv.viewer.VolumeImageViewer({ client, metadata: images });
        // The viewer fits the slide into the viewport on its first drawing; the test's views come after it.
        const fitted = new Promise<void>((resolve) => viewer.getMap().once('rendercomplete', resolve));
        viewer.render({ container: page.document.getElementById('viewport') });
        page.viewer = viewer;
        await fitted;
        const base = images.reduce((widest, image) =>
          image.TotalPixelMatrixColumns > widest.TotalPixelMatrixColumns ? image : widest,
        );
        // The zoom factor of each level as the viewer's pyramid has it: from the widths alone.
        return images
          .map((image) => ({
            factor: base.TotalPixelMatrixColumns / image.TotalPixelMatrixColumns,
            width: image.TotalPixelMatrixColumns,
            height: image.TotalPixelMatrixRows,
          }))
          .sort((a, b) => a.factor - b.factor);
      },
      { root, token, study: dicomUids.study(caseId), series: dicomUids.series(imageId) },
    );
    return { tab, levels, errors };
  }

  /**
   * Shows `REGION` level pixels from (left, top) of a level in the middle of the viewport, one screen pixel per
   * level pixel and unrotated (Slim turns the slide so that its label is on the right), once every tile is drawn.
   */
  async function draw(tab: Page, level: Shown, left: number, top: number): Promise<Buffer> {
    const margin = (VIEWPORT - REGION) / 2;
    await tab.evaluate(
      async ({ factor, center }) => {
        const map = (globalThis as never as PageGlobals).viewer.getMap();
        const drawn = new Promise<void>((resolve) => map.once('rendercomplete', resolve));
        const view = map.getView();
        view.setRotation(0);
        view.setResolution(factor);
        // The viewer's pyramid puts the top left corner of the slide at (0, -1) and rows downwards.
        view.setCenter([center[0]! * factor, -1 - center[1]! * factor]);
        map.render();
        await drawn;
      },
      { factor: level.factor, center: [left + REGION / 2, top + REGION / 2] },
    );
    const shot = await tab.locator('#viewport').screenshot();
    return sharp(shot)
      .extract({ left: margin, top: margin, width: REGION, height: REGION })
      .removeAlpha()
      .raw()
      .toBuffer();
  }

  async function iiif(layerId: string, level: Shown, left: number, top: number): Promise<Buffer> {
    const f = level.factor;
    const region = [left * f, top * f, REGION * f, REGION * f].map(Math.round).join(',');
    const response = await t.app.inject({
      method: 'GET',
      url: `/iiif/2/${layerId}/${region}/${REGION},${REGION}/0/default.png`,
      headers: await t.auth('viewer'),
    });
    expect(response.statusCode, region).toBe(200);
    return sharp(response.rawPayload).removeAlpha().raw().toBuffer();
  }

  function meanDifference(a: Buffer, b: Buffer): number {
    let sum = 0;
    for (let index = 0; index < a.length; index++) sum += Math.abs(a[index]! - b[index]!);
    return sum / a.length;
  }

  async function compareThreeLevels(imageId: string, layerId: string, name: string) {
    const { tab, levels, errors } = await open(imageId);
    onTestFinished(() => tab.close());
    expect(levels.length).toBeGreaterThanOrEqual(3);
    const shots = await fs.mkdtemp(path.join(os.tmpdir(), 'shots-dicomweb-viewer-'));
    for (const level of levels.slice(0, 3)) {
      const left = Math.floor((level.width - REGION) / 2);
      const top = Math.floor((level.height - REGION) / 2);
      const drawn = await draw(tab, level, left, top);
      const expected = await iiif(layerId, level, left, top);
      const raw = { raw: { width: REGION, height: REGION, channels: 3 as const } };
      await sharp(drawn, raw)
        .png()
        .toFile(path.join(shots, `${name}-${level.factor}-viewer.png`));
      await sharp(expected, raw)
        .png()
        .toFile(path.join(shots, `${name}-${level.factor}-iiif.png`));
      expect(meanDifference(drawn, expected), `level ×${level.factor}`).toBeLessThanOrEqual(3);
    }
    expect(errors).toEqual([]);
  }

  it('draws a converted slide as our IIIF tiles show it, at three levels', async () => {
    const { imageId, layerId } = await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'));
    await compareThreeLevels(imageId, layerId, 'converted');
  }, 120_000);

  it('draws an imported DICOM slide (TIFFToDicom) as our IIIF tiles show it, at three levels', async () => {
    const zip = await zipFiles(path.join(t.dataDir, 'slide.zip'), await tiffToDicomSlide());
    const { imageId, layerId } = await convertedSlide(t, caseId, zip);
    await compareThreeLevels(imageId, layerId, 'imported');
  }, 120_000);
});
