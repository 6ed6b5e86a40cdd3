import { MAX_JSON_DEPTH, MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';
import { nestsDeeperThan } from './json-body.ts';

const BODY_METHODS = ['post', 'put', 'patch', 'delete'];
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];
/**
 * Uploads stream their raw body to storage whatever its type; a detections upload measures its own nesting as it
 * streams (detection-nesting.test.ts), and retrying an import reads no body. None is parsed into an object tree
 * first, so none is walked.
 */
const RAW_BODY_OPERATIONS = new Set([
  'uploadImage',
  'uploadAttachment',
  'uploadNoticeMedia',
  'importLayerDetections',
  'deleteLayerDetections',
  'retryLayerDetectionImport',
]);

const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":{}}]}', 3)).toBe(true);
    expect(nestsDeeperThan('["[[[[", "\\"[[[["]', 1)).toBe(false);
    expect(nestsDeeperThan('[[], [], [], [[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[], [], [], [[]]]', 2)).toBe(true);
  });
});

describe('a JSON body nested thousands of levels deep', () => {
  const t = useTestApp();

  it('is refused with 422 by every route that takes a body, in both JSON types, before anything walks it', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { operationId?: string }>>;
    }>();
    const headers = await t.auth('member');
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const [template, methods] of Object.entries(document.paths)) {
      const url = template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const [method, operation] of Object.entries(methods).filter(([method]) => BODY_METHODS.includes(method))) {
        const raw = RAW_BODY_OPERATIONS.has(operation.operationId ?? '');
        for (const type of JSON_TYPES) {
          // About 5 KB of `[` and 3,000 objects: each overflowed the stack (500) before this check.
          for (const payload of [nestedArray(2_500), nestedObject(3_000)]) {
            const route = `${method.toUpperCase()} ${template} ${type} ${payload.slice(0, 2)}`;
            const response = await t.app.inject({
              method: method.toUpperCase() as 'POST',
              url,
              headers: { ...headers, 'content-type': type },
              payload,
            });
            const refusedForDepth =
              response.statusCode === 422 &&
              response.json<{ errors?: Record<string, string> }>().errors?.body === MESSAGES.bodyNestedTooDeep;
            expected.push(`${route}: ${raw ? 'answered' : 'refused'}`);
            outcomes.push(
              `${route}: ${
                raw && response.statusCode < 500
                  ? 'answered'
                  : refusedForDepth
                    ? 'refused'
                    : `${response.statusCode} ${response.body.slice(0, 120)}`
              }`,
            );
          }
        }
      }
    }
    expect(outcomes).toEqual(expected);
    expect(expected.length).toBeGreaterThan(200);
  });

  it('is parsed as usual up to the limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: { ...(await t.auth('member')), 'content-type': 'application/json' },
      payload: nestedArray(MAX_JSON_DEPTH),
    });
    // The contract's own validation answers: the body is not a search, but it was read.
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors?: Record<string, string> }>().errors?.body).not.toBe(MESSAGES.bodyNestedTooDeep);
  });
});
