import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Drawing, ImageNoteList } from '@pathology/contract';
import { withRetries, type Client } from './client.ts';
import type { Slide } from './world.ts';

/** One save as the web app makes it, and what became of it. */
export interface Write {
  what: 'drawing' | 'note';
  slide: Slide;
  /** The drawing's id (made by the client, as the web app does); unknown for a note until acknowledged. */
  id: string;
  /** The title of a drawing or the body of a note: unique, so it is found again. */
  text: string;
  coordinates: number[][];
  /** A 2xx came for it (or, to a repeated drawing, 409: the first attempt was kept). */
  acknowledged: boolean;
  /** Read back with its content at the end. */
  found?: boolean;
}

/** A freehand stroke of 40 points somewhere on the slide. */
function stroke(slide: Slide, n: number): number[][] {
  const [cx, cy] = [(n * 97) % slide.layer.width, (n * 61) % slide.layer.height];
  return Array.from({ length: 40 }, (_, i) => [Math.round(cx + 50 * Math.cos(i / 6)), Math.round(cy + 3 * i)]);
}

/** Saves one drawing or note, repeating it with the same content while the server may come back. */
async function save(client: Client, write: Write): Promise<void> {
  const { slide } = write;
  if (write.what === 'drawing') {
    let attempts = 0;
    const answer = await withRetries(() => {
      attempts += 1;
      return client.send('API write', 'POST', `/api/v1/images/${slide.imageId}/layers/${slide.layer.id}/drawings`, {
        id: write.id,
        shapeType: 'freehand',
        title: write.text,
        geometry: { type: 'LineString', coordinates: write.coordinates },
      });
    });
    write.acknowledged = answer.status === 201 || answer.status === 200 || (answer.status === 409 && attempts > 1);
    return;
  }
  const answer = await withRetries(() =>
    client.send('API write', 'POST', `/api/v1/images/${slide.imageId}/notes`, { body: write.text }),
  );
  write.acknowledged = answer.status === 201 || answer.status === 200;
  if (write.acknowledged) write.id = answer.json<{ id: string }>().id;
}

/** Drawings and notes in turns, `perMinute` of them, until `until`; resolves once every save has its last answer. */
export async function runWrites(client: Client, slides: readonly Slide[], perMinute: number, until: number) {
  const writes: Write[] = [];
  const saving: Promise<void>[] = [];
  const every = 60_000 / perMinute;
  for (let n = 0; perMinute > 0 && Date.now() < until; n += 1) {
    const slide = slides[n % slides.length]!;
    const write: Write = {
      what: n % 2 === 0 ? 'drawing' : 'note',
      slide,
      id: randomUUID(),
      text: `soak ${n % 2 === 0 ? 'drawing' : 'note'} ${n} ${randomUUID()}`,
      coordinates: stroke(slide, n),
      acknowledged: false,
    };
    writes.push(write);
    saving.push(save(client, write));
    await sleep(every);
  }
  await Promise.all(saving);
  return writes;
}

/** Reads every write back: a drawing by its id with its title and points, a note by its text in the image's list. */
export async function verifyWrites(client: Client, writes: readonly Write[]): Promise<void> {
  const notes = new Map<string, Set<string>>();
  for (const write of writes) {
    if (write.what === 'drawing') {
      const { slide } = write;
      const path = `/api/v1/images/${slide.imageId}/layers/${slide.layer.id}/drawings/${write.id}`;
      const answer = await withRetries(() => client.call('API read', 'GET', path));
      const drawing = answer.status === 200 ? answer.json<Drawing>() : null;
      write.found =
        drawing != null &&
        drawing.title === write.text &&
        JSON.stringify((drawing.geometry as { coordinates?: unknown }).coordinates) ===
          JSON.stringify(write.coordinates);
      continue;
    }
    let bodies = notes.get(write.slide.imageId);
    if (bodies == null) {
      const answer = await withRetries(() =>
        client.call('API read', 'GET', `/api/v1/images/${write.slide.imageId}/notes`),
      );
      bodies = new Set(answer.status === 200 ? answer.json<ImageNoteList>().data.map((note) => note.body) : []);
      notes.set(write.slide.imageId, bodies);
    }
    write.found = bodies.has(write.text);
  }
}

/**
 * A write is lost when it is not there at the end, acknowledged or not: one never acknowledged may still have been
 * kept (the answer was lost with the server), and then it is no loss.
 */
export const lostWrites = (writes: readonly Write[]) => writes.filter((write) => !write.found);
