import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { zipHoldsDicom } from '../../imaging/index.ts';
import { dicomScale, openDicomSlide } from '../../imaging/dicom-original.ts';
import { isDicomHead } from '../../imaging/dicom-read.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { planDicom, renderFromDicom } from './original-dicom.ts';
import type { ServedOriginal } from './served-original.ts';

/** A DICOM original opened for serving; `served` is null when it must be converted first. */
interface OpenedDicom {
  served: ServedOriginal | null;
  close(): Promise<void>;
}

const MAX_KINDS = 10_000;
/** A request that took an original before it left the cache may still be reading it: it is closed this much later. */
const EVICTED_CLOSE_MS = 30_000;
const ZIP_MAGIC = 0x04034b50;

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Extractions a process left behind when it ended without closing them (a crash, a kill): those of
 * processes gone, and those under this process's own id, which a container gives again after a restart.
 */
async function removeLeftovers(dicomDir: string): Promise<void> {
  const names = await fs.readdir(dicomDir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => {
        const pid = Number(name.split('-')[0]);
        return Number.isInteger(pid) && (pid === process.pid || !alive(pid));
      })
      .map((name) => fs.rm(path.join(dicomDir, name), { recursive: true, force: true })),
  );
}

/**
 * DICOM uploads (one Part 10 file, or a zip of a slide's instances) opened for serving before their
 * conversion: which stored originals are DICOM is found once per key from their first bytes (a zip's from
 * its directory, read by ranges); the few opened ones are kept in an LRU, each with its instances
 * extracted to the local cache and its files open, all removed when it leaves the LRU.
 */
export function createDicomOriginals(deps: { blobs: BlobStore; cacheDir: string; maxOpen: number }) {
  const kinds = new Map<string, Promise<boolean>>();
  const open = new Map<string, Promise<OpenedDicom>>();
  const dicomDir = path.join(deps.cacheDir, 'dicom');
  // Opened only once swept: a folder of this process made meanwhile would be taken for a leftover.
  const swept = removeLeftovers(dicomDir).catch(() => {});

  async function isDicom(key: string): Promise<boolean> {
    const stat = await deps.blobs.stat(key);
    if (stat == null) return false;
    const read = (start: number, end: number) => deps.blobs.get(key, { start, end: end - 1 });
    const head = await streamToBuffer(await read(0, Math.min(stat.size, 132)));
    if (isDicomHead(head)) return true;
    if (head.length < 4 || head.readUInt32LE(0) !== ZIP_MAGIC) return false;
    return zipHoldsDicom({ size: stat.size, read }).catch(() => false);
  }

  async function openDicom(key: string): Promise<OpenedDicom> {
    await swept;
    const folder = path.join(dicomDir, `${process.pid}-${randomUUID()}`);
    await fs.mkdir(folder, { recursive: true });
    const remove = () => fs.rm(folder, { recursive: true, force: true });
    try {
      let file = await deps.blobs.localPath?.(key);
      if (file == null) {
        // Stores without local files (S3): the upload is copied once, beside what is extracted from it.
        file = path.join(folder, 'original');
        await pipeline(await deps.blobs.get(key), createWriteStream(file));
      }
      const dicom = await openDicomSlide(file, path.join(folder, 'instances'));
      const plan = planDicom(dicom.slide);
      const target = { key, dicom, workDir: folder };
      return {
        served:
          plan == null
            ? null
            : {
                levels: plan.levels,
                scale: dicomScale(dicom.slide),
                render: (request, tiles) => renderFromDicom(target, plan, request, tiles),
              },
        close: () => dicom.close().finally(remove),
      };
    } catch (error) {
      await remove();
      throw error;
    }
  }

  function closeLater(entry: Promise<OpenedDicom>): void {
    setTimeout(() => void entry.then((dicom) => dicom.close()).catch(() => {}), EVICTED_CLOSE_MS).unref();
  }

  return {
    /** The original opened when it is a DICOM upload; null for any other original. */
    async open(key: string): Promise<OpenedDicom | null> {
      let kind = kinds.get(key);
      if (kind == null) {
        if (kinds.size >= MAX_KINDS) kinds.clear();
        kind = isDicom(key);
        kind.catch(() => kinds.delete(key));
        kinds.set(key, kind);
      }
      if (!(await kind)) return null;
      let entry = open.get(key);
      if (entry != null) {
        open.delete(key);
      } else {
        entry = openDicom(key);
        // A failed open is not kept: the next request tries again.
        entry.catch(() => open.delete(key));
      }
      open.set(key, entry);
      if (open.size > deps.maxOpen) {
        const [oldestKey, oldest] = open.entries().next().value!;
        open.delete(oldestKey);
        closeLater(oldest);
      }
      return entry;
    },

    async closeAll(): Promise<void> {
      const all = [...open.values()];
      open.clear();
      await Promise.allSettled(all.map(async (entry) => (await entry).close()));
    },
  };
}

export type DicomOriginals = ReturnType<typeof createDicomOriginals>;
