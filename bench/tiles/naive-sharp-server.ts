/**
 * Baseline (a) of the tile benchmark: the naive way to serve tiles with sharp. Every request opens the
 * pyramid file anew, extracts the region from the pyramid page of the right scale, resizes when asked and
 * JPEG-encodes it; no pass-through, no cache (sharp.cache(false), as the server sets it). It speaks just
 * enough IIIF for the benchmark's URLs: `/{x},{y},{w},{h}/{width},/0/default.jpg`.
 *
 * Run as its own process (`node --import tsx naive-sharp-server.ts <pyramid.tif> <level widths>`), so a
 * cold run starts it fresh like the other servers; prints `listening <port>` when ready.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { JPEG_QUALITY } from '../../apps/server/src/imaging/pyramid.ts';

sharp.cache(false);

const [file, widthsText] = process.argv.slice(2);
if (file == null || widthsText == null) throw new Error('usage: naive-sharp-server.ts <pyramid.tif> <w0,w1,…>');
/** Width of each pyramid page, level 0 first: page L is level 0 shrunk by 2^L. */
const levelWidths = widthsText.split(',').map(Number);
const PATH = /^\/(\d+),(\d+),(\d+),(\d+)\/(\d+),\/0\/default\.jpg$/;

async function render(url: string): Promise<Buffer | null> {
  const match = PATH.exec(url);
  if (match == null) return null;
  const [x, y, w, h, width] = match.slice(1).map(Number) as [number, number, number, number, number];
  const height = Math.round((width * h) / w);
  // The smallest page that still has at least the asked resolution, as a tile server picks it.
  let level = 0;
  while (level + 1 < levelWidths.length && 2 ** (level + 1) <= w / width + 1e-9) level++;
  const scale = 2 ** level;
  const region = {
    left: Math.floor(x / scale),
    top: Math.floor(y / scale),
    width: Math.round(w / scale),
    height: Math.round(h / scale),
  };
  let image = sharp(file, { page: level, limitInputPixels: false }).extract(region);
  if (region.width !== width || region.height !== height) image = image.resize(width, height, { fit: 'fill' });
  return image.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer();
}

const server = http.createServer((request, response) => {
  render(request.url ?? '').then(
    (body) => {
      if (body == null) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length }).end(body);
    },
    (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
