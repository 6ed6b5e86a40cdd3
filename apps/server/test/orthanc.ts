import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.ts';

const PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';
const EXECUTABLE = '/usr/sbin/Orthanc';

export interface Orthanc {
  /** Its DICOMweb root, e.g. http://127.0.0.1:41234/dicom-web */
  root: string;
  /** Its REST API, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Stores Part 10 files; answers the study and series UIDs they are filed under. */
  store(files: string[]): Promise<{ study: string; series: string }>;
  stop(): Promise<void>;
}

/** Why Orthanc with its DICOMweb plugin cannot run here (Debian's orthanc and orthanc-dicomweb), or null. */
export function orthancMissing(): string | null {
  if (!existsSync(EXECUTABLE)) return `${EXECUTABLE} is not installed (Debian package orthanc)`;
  if (!existsSync(PLUGIN)) return `${PLUGIN} is not installed (Debian package orthanc-dicomweb)`;
  return null;
}

/** Debian's Orthanc with its DICOMweb plugin, on a free HTTP port and a fresh storage folder; no DICOM port. */
export async function startOrthanc(): Promise<Orthanc> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'orthanc-'));
  const port = await freePort();
  const config = path.join(dir, 'orthanc.json');
  await fs.writeFile(
    config,
    JSON.stringify({
      Name: 'pathology-test',
      HttpPort: port,
      DicomServerEnabled: false,
      StorageDirectory: path.join(dir, 'storage'),
      IndexDirectory: path.join(dir, 'storage'),
      Plugins: [PLUGIN],
      RemoteAccessAllowed: true,
      AuthenticationEnabled: false,
      DicomWeb: { Enable: true, Root: '/dicom-web/' },
    }),
  );
  const child = spawn(EXECUTABLE, [config], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(`${url}/system`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (attempt > 100 || child.exitCode != null) throw new Error(`Orthanc did not start on port ${port}`);
    await sleep(100);
  }
  return {
    root: `${url}/dicom-web`,
    url,
    async store(files) {
      let stored: { ParentStudy: string; ParentSeries: string } | undefined;
      for (const file of files) {
        const response = await fetch(`${url}/instances`, { method: 'POST', body: await fs.readFile(file) });
        if (!response.ok) throw new Error(`Orthanc refused ${file}: ${response.status}`);
        stored = (await response.json()) as { ParentStudy: string; ParentSeries: string };
      }
      const tags = async (kind: string, id: string) =>
        ((await (await fetch(`${url}/${kind}/${id}`)).json()) as { MainDicomTags: Record<string, string> })
          .MainDicomTags;
      return {
        study: (await tags('studies', stored!.ParentStudy)).StudyInstanceUID!,
        series: (await tags('series', stored!.ParentSeries)).SeriesInstanceUID!,
      };
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
