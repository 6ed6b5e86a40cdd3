import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { readTiffStructure } from './src/imaging/tiff-structure.ts';
for (const f of process.argv.slice(2)) {
  const h = await open(f, 'r');
  const s = await readTiffStructure(h);
  await h.close();
  const p = s.pages[0]!;
  let ok = 'ok';
  try { await sharp(f).stats(); } catch (e) { ok = (e as Error).message; }
  console.log(f, p.width, p.height, p.tileWidth, p.tileHeight, 'photometric', p.photometric, 'pages', s.pages.length, ok);
}
