import {
  CreateDrawingRequestSchema,
  MAX_JSON_DEPTH,
  UpdateDrawingRequestSchema,
  type DrawingGeometry,
} from '@pathology/contract';
import { nestsDeeperThan } from '../../http/json-body.ts';
import { nulCharacterPaths } from '../../http/nul-characters.ts';
import { prepareGeometry, type PreparedGeometry } from './prepared-geometry.ts';

/** Which drawing route a body came to: a new drawing (POST) or a change (PATCH). */
export type DrawingBodyKind = 'create' | 'update';

const SCHEMAS = { create: CreateDrawingRequestSchema, update: UpdateDrawingRequestSchema };

/** A drawing body as its route's schema gave it, its geometry (where it has one) prepared for the save. */
export type Prepared<T extends { geometry?: DrawingGeometry }> = Omit<T, 'geometry'> &
  (undefined extends T['geometry'] ? { geometry?: PreparedGeometry } : { geometry: PreparedGeometry });

export function withPreparedGeometry<T extends { geometry?: DrawingGeometry }>(body: T): Prepared<T> {
  const { geometry, ...rest } = body;
  return (geometry === undefined ? rest : { ...rest, geometry: prepareGeometry(geometry) }) as Prepared<T>;
}

export interface DrawingBodyTask {
  text: string;
  kind: DrawingBodyKind;
}

/**
 * What the event loop's parse, NUL check and schema would make of a drawing body, prepared for the save; null for any
 * body they would refuse (or that Fastify's prototype-poisoning guard would look at), which is then read again on
 * the event loop so the answer and its messages are the ones every other body gets.
 */
export function readDrawingBody({ text, kind }: DrawingBodyTask) {
  if (text.includes('__proto__') || text.includes('constructor') || nestsDeeperThan(text, MAX_JSON_DEPTH)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (nulCharacterPaths(value).length > 0) return null;
  const result = SCHEMAS[kind].safeParse(value);
  return result.success ? withPreparedGeometry(result.data) : null;
}
