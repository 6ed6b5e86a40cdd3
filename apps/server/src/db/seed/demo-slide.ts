import { sharp } from '../../imaging/sharp-setup.ts';
import { Random } from './random.ts';

/** Size of the synthetic demo slide: large enough for a pyramid of five levels and the 20× default. */
export const DEMO_SLIDE_WIDTH = 8192;
export const DEMO_SLIDE_HEIGHT = 6144;
/** 0.5 µm per pixel, as a 20× scan: 20,000 pixels per centimetre, so the viewer shows a scale bar. */
const PIXELS_PER_CM = 20_000;

const STROMA = ['#f2c4d6', '#eab3c9', '#f5d0de', '#e7a9c2'];
const NUCLEI = ['#5b3a8c', '#4a2f78', '#6c4a9e', '#3f2a66'];

/**
 * A made-up H&E-like picture (pink tissue islands with purple nuclei) for the demo installation:
 * real scanner files are not ours to ship, and a fresh machine has none. Seeded, so every demo
 * installation shows the same slide.
 */
export async function renderDemoSlide(seed: number): Promise<Buffer> {
  const random = new Random(seed);
  const islands: string[] = [];
  const nuclei: { x: number; y: number; rx: number; ry: number; color: number[] }[] = [];
  // Tissue is drawn small and scaled up (smooth shapes need no detail); nuclei are stamped at full size.
  const shrink = 8;
  for (let island = 0; island < 14; island++) {
    const cx = random.int(600, DEMO_SLIDE_WIDTH - 600);
    const cy = random.int(600, DEMO_SLIDE_HEIGHT - 600);
    const rx = random.int(500, 1400);
    const ry = random.int(400, 1100);
    const rotation = random.int(0, 180);
    islands.push(
      `<ellipse cx="${cx / shrink}" cy="${cy / shrink}" rx="${rx / shrink}" ry="${ry / shrink}" ` +
        `transform="rotate(${rotation} ${cx / shrink} ${cy / shrink})" fill="${random.pick(STROMA)}"/>`,
    );
    const radians = (rotation * Math.PI) / 180;
    for (let nucleus = 0; nucleus < 900; nucleus++) {
      const angle = random.next() * Math.PI * 2;
      const distance = Math.sqrt(random.next()) * 0.95;
      const [dx, dy] = [Math.cos(angle) * rx * distance, Math.sin(angle) * ry * distance];
      nuclei.push({
        x: Math.round(cx + dx * Math.cos(radians) - dy * Math.sin(radians)),
        y: Math.round(cy + dx * Math.sin(radians) + dy * Math.cos(radians)),
        rx: random.int(6, 14),
        ry: random.int(5, 11),
        color: hex(random.pick(NUCLEI)),
      });
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${DEMO_SLIDE_WIDTH / shrink}" height="${DEMO_SLIDE_HEIGHT / shrink}">
    <rect width="100%" height="100%" fill="#fbf7f9"/>${islands.join('')}</svg>`;
  const pixels = await sharp(Buffer.from(svg))
    .resize(DEMO_SLIDE_WIDTH, DEMO_SLIDE_HEIGHT, { kernel: 'cubic' })
    .removeAlpha()
    .raw()
    .toBuffer();
  for (const nucleus of nuclei) stamp(pixels, nucleus);
  return (
    sharp(pixels, { raw: { width: DEMO_SLIDE_WIDTH, height: DEMO_SLIDE_HEIGHT, channels: 3 } })
      .blur(0.8)
      // xres and yres are in pixels per millimetre.
      .tiff({
        compression: 'jpeg',
        quality: 90,
        tile: true,
        resolutionUnit: 'cm',
        xres: PIXELS_PER_CM / 10,
        yres: PIXELS_PER_CM / 10,
      })
      .toBuffer()
  );
}

function hex(color: string): number[] {
  return [1, 3, 5].map((start) => parseInt(color.slice(start, start + 2), 16));
}

/** Paints one nucleus, darker towards its middle, into an RGB buffer of the slide. */
function stamp(pixels: Buffer, nucleus: { x: number; y: number; rx: number; ry: number; color: number[] }): void {
  for (let dy = -nucleus.ry; dy <= nucleus.ry; dy++) {
    const y = nucleus.y + dy;
    if (y < 0 || y >= DEMO_SLIDE_HEIGHT) continue;
    for (let dx = -nucleus.rx; dx <= nucleus.rx; dx++) {
      const x = nucleus.x + dx;
      const inside = (dx / nucleus.rx) ** 2 + (dy / nucleus.ry) ** 2;
      if (x < 0 || x >= DEMO_SLIDE_WIDTH || inside > 1) continue;
      const weight = 0.55 + 0.4 * (1 - inside);
      const offset = (y * DEMO_SLIDE_WIDTH + x) * 3;
      for (let channel = 0; channel < 3; channel++) {
        pixels[offset + channel] = Math.round(
          pixels[offset + channel]! * (1 - weight) + nucleus.color[channel]! * weight,
        );
      }
    }
  }
}
