import fs from 'node:fs/promises';
import sharp from 'sharp';
import { readTiffStructure, fileHandleReader } from '/work/main/apps/server/src/imaging/index.ts';
import { spliceJpegTile } from '/work/main/apps/server/src/modules/iiif/tile-render.ts';
sharp.cache(false);
const info = JSON.parse(await fs.readFile('/tmp/proto/profinfo.json', 'utf8'));
const file = info.pyramid;
const h = await fs.open(file, 'r');
const st = await fs.stat(file);
const reader = fileHandleReader(h, st.size);
const pages = (await readTiffStructure(h)).pages.filter((p) => p.tileWidth != null);
const N = 60;
async function time(name: string, fn: (i: number) => Promise<unknown>) {
  const t = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  console.log(name, ((performance.now() - t) / N).toFixed(1), 'ms');
}
const xy = (i: number) => ({ left: 512 * (i % 30) + 100, top: 512 * Math.floor(i / 30) + 100 });
await time('open only (metadata)', async () => sharp(file, { page: 0, limitInputPixels: false }).metadata());
await time('extract 512 -> raw', async (i) => sharp(file, { page: 0, limitInputPixels: false, sequentialRead: false }).extract({ ...xy(i), width: 512, height: 512 }).raw().toBuffer());
await time('extract+resize+jpeg95 (ours)', async (i) => sharp(file, { page: 0, limitInputPixels: false, sequentialRead: false }).extract({ ...xy(i), width: 512, height: 512 }).resize(400, 400, { fit: 'fill', kernel: 'lanczos3' }).jpeg({ quality: 95, chromaSubsampling: '4:4:4', optimiseCoding: false }).toBuffer());
const p = pages[0]!;
const across = Math.ceil(p.width / 512);
async function tile(c: number, r: number) { const idx = r * across + c; return spliceJpegTile(p.jpegTables, await reader.read(p.tileOffsets[idx]!, p.tileByteCounts[idx]!)); }
await time('4 tiles decode+join+extract+resize+jpeg95', async (i) => {
  const c = i % 30, r = Math.floor(i / 30);
  const bufs = await Promise.all([tile(c, r), tile(c + 1, r), tile(c, r + 1), tile(c + 1, r + 1)]);
  const raws = await Promise.all(bufs.map((b) => sharp(b).raw().toBuffer()));
  const joined = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#000' } }).composite(raws.map((raw, k) => ({ input: raw, raw: { width: 512, height: 512, channels: 3 }, left: (k % 2) * 512, top: Math.floor(k / 2) * 512 }))).raw().toBuffer();
  return sharp(joined, { raw: { width: 1024, height: 1024, channels: 3 } }).extract({ left: 100, top: 100, width: 512, height: 512 }).resize(400, 400, { fit: 'fill', kernel: 'lanczos3' }).jpeg({ quality: 95, chromaSubsampling: '4:4:4', optimiseCoding: false }).toBuffer();
});
await time('1 tile decode (sharp->raw)', async (i) => sharp(await tile(i % 30, 1)).raw().toBuffer());
