import { afterAll, beforeAll, describe } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { orthancMissing, startOrthanc, type Orthanc } from '#test/orthanc.ts';
import { useTestApp } from '#test/test-app.ts';
import path from 'node:path';
import { dicomizerSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { dicomwebConformance, type DicomwebTarget } from './dicomweb-conformance.test-support.ts';
import { dicomUids } from './dicom-uids.ts';

/** One slide, dicomized by OrthancWSIDicomizer: imported into ours, stored as it is in Orthanc. */
const dicomized = () => dicomizerSlide({ tileSize: 256, compression: 'jpeg', pyramid: true });

describe('DICOMweb conformance: ours', () => {
  const t = useTestApp();
  let target: DicomwebTarget;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address == null || typeof address === 'string') throw new Error('the app listens on no port');
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-45-C' });
    const zip = await zipFiles(path.join(t.dataDir, 'dicomized.zip'), await dicomized());
    const { imageId } = await convertedSlide(t, caseId, zip);
    target = {
      root: `http://127.0.0.1:${address.port}/dicomweb`,
      headers: await t.auth('viewer'),
      study: dicomUids.study(caseId),
      series: dicomUids.series(imageId),
    };
  }, 120_000);
  dicomwebConformance(() => target);
});

const missing = orthancMissing();
if (missing != null) console.log(`DICOMweb conformance against Orthanc skipped: ${missing}`);

describe.skipIf(missing != null)("DICOMweb conformance: Debian's Orthanc with its DICOMweb plugin", () => {
  let orthanc: Orthanc;
  let target: DicomwebTarget;
  beforeAll(async () => {
    orthanc = await startOrthanc();
    target = {
      root: orthanc.root,
      headers: {},
      ...(await orthanc.store(await dicomized())),
      // Orthanc 1.10's plugin answers octet-stream with transfer-syntax=* in image/jpeg parts: the media type the
      // client did not ask for. PS3.18 §8.7.4 has the response in one of the media types of Accept, and §8.7.3.5.2
      // keeps application/octet-stream for frames in any transfer syntax, named by the part's transfer-syntax
      // parameter, which is what we send (and what dicom-microscopy-viewer also reads).
      octetStreamFramePart: /^image\/jpeg/,
    };
  }, 120_000);
  afterAll(() => orthanc?.stop());
  dicomwebConformance(() => target);
});
