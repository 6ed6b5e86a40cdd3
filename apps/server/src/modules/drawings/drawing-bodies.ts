import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { DrawingGeometry } from '@pathology/contract';
import { JSON_BODY_TYPES, jsonBodyParser } from '../../http/json-body.ts';
import { ThreadPool } from '../../thread-pool.ts';
import { withPreparedGeometry, type DrawingBodyTask, type Prepared, type readDrawingBody } from './drawing-body.ts';

/**
 * A body this long (about 5,000 points) is read on a worker thread: a drawing of 100,000 points took ~0.23 s of the
 * event loop to parse, check and prepare, while everyone else's requests waited (issue 46). Shorter ones cost the
 * loop less than handing them over would.
 */
const OFF_LOOP_CHARS = 64 * 1024;
/** A body not read by then is read on the event loop instead. */
const READ_BUDGET_MS = 10_000;
/** A reading thread left idle this long is stopped, giving back the heap a large drawing grew. */
const IDLE_MS = 60_000;

let readers: ThreadPool<DrawingBodyTask, ReturnType<typeof readDrawingBody>> | undefined;
const bodyReaders = () =>
  (readers ??= new ThreadPool({ from: import.meta.url, name: 'drawing-body.worker' }, READ_BUDGET_MS, {
    idleMs: IDLE_MS,
  }));

/** The bodies a worker thread read and checked against their route's schema. */
const readOffLoop = new WeakSet<object>();

/**
 * In the plugin of the drawing routes that take geometry (POST and PATCH): long JSON bodies are parsed, checked for
 * NUL characters, validated and their geometry prepared on a worker thread. Anything it would not take is parsed on
 * the event loop as before, so refusals keep their status and messages. The plugin's validator lets through the
 * bodies the worker validated.
 */
export function registerDrawingBodies(app: FastifyInstance): void {
  const parseOnLoop = jsonBodyParser(app);
  app.removeContentTypeParser(JSON_BODY_TYPES);
  app.addContentTypeParser(JSON_BODY_TYPES, { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.length < OFF_LOOP_CHARS) {
      parseOnLoop(request, text, done);
      return;
    }
    void bodyReaders()
      .run({ text, kind: request.method === 'POST' ? 'create' : 'update' })
      .catch(() => null)
      .then((read) => {
        if (read == null) return parseOnLoop(request, text, done);
        readOffLoop.add(read);
        done(null, read);
      });
  });
  app.setValidatorCompiler(drawingValidatorCompiler);
}

/** The zod validator of the routes, but for bodies a worker thread already validated against the same schema. */
const drawingValidatorCompiler: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  return (data: unknown) =>
    data != null && typeof data === 'object' && readOffLoop.has(data) ? { value: data } : validate(data);
};

/** A validated drawing body with its geometry prepared: by the worker thread that read it, or here for a short one. */
export function preparedBody<T extends { geometry?: DrawingGeometry }>(body: T): Prepared<T> {
  // The worker's output stands where the schema's would: the same fields, its geometry already prepared.
  return readOffLoop.has(body) ? (body as unknown as Prepared<T>) : withPreparedGeometry(body);
}
