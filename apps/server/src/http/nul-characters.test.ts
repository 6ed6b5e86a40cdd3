import { MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';
import { nulCharacterPaths } from './nul-characters.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const NUL = 'a\0b';
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

describe('nulCharacterPaths', () => {
  it('names every string holding a NUL, in nested objects and arrays, and keys too', () => {
    expect(
      nulCharacterPaths({ comment: 'ok', query: [{ values: ['x', NUL] }], [NUL]: 1, buffer: Buffer.from([0]) }),
    ).toEqual(['query.0.values.1', NUL]);
    expect(nulCharacterPaths(NUL)).toEqual(['body']);
    expect(nulCharacterPaths({ fine: ['text', 3, null, { deep: 'ok' }] })).toEqual([]);
  });
});

describe('a NUL character anywhere in a request', () => {
  const t = useTestApp();

  const expectRefused = (response: { statusCode: number; json(): unknown }, field: string, route: string) => {
    expect({ route, status: response.statusCode }).toEqual({ route, status: 422 });
    expect(response.json()).toEqual({
      message: MESSAGES.validationFailed,
      errors: expect.objectContaining({ [field]: MESSAGES.fieldNulCharacter }) as unknown,
    });
  };

  it('is refused with 422 and the field name in every path parameter, query value and JSON field of every route', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const headers = await t.auth('member');
    let checked = 0;
    for (const [template, methods] of Object.entries(document.paths)) {
      // CORS preflights answer before any route runs and carry no data.
      for (const [method, operation] of Object.entries(methods).filter(([method]) => method !== 'options')) {
        const route = `${method.toUpperCase()} ${template}`;
        const parameters = operation.parameters ?? [];
        const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
        const url = (nulIn?: string) =>
          template.replace(/\{([^}]+)\}/g, (_, name: string) =>
            name === nulIn ? encodeURIComponent(NUL) : '00000000-0000-4000-8000-000000000000',
          );
        const send = (path: string, body?: { type: string; payload: string }) =>
          t.app.inject({
            method: method.toUpperCase() as 'GET',
            url: path,
            headers: body ? { ...headers, 'content-type': body.type } : headers,
            ...(body ? { payload: body.payload } : {}),
          });
        for (const { name } of pathParameters) {
          expectRefused(await send(url(name)), name, route);
          checked++;
        }
        for (const { name } of parameters.filter((parameter) => parameter.in === 'query')) {
          expectRefused(await send(`${url()}?${new URLSearchParams({ [name]: NUL }).toString()}`), name, route);
          checked++;
        }
        const content = operation.requestBody?.content ?? {};
        for (const type of Object.keys(content).filter((type) => JSON_TYPES.includes(type))) {
          for (const field of Object.keys(content[type]?.schema?.properties ?? {})) {
            expectRefused(await send(url(), { type, payload: JSON.stringify({ [field]: NUL }) }), field, route);
            checked++;
          }
        }
      }
    }
    // Every route family that takes text: cases and their search, images and their search, comments, labels, tags, names.
    expect(checked).toBeGreaterThan(60);
  });

  it('is refused in the nested search values of cases/search and images/search, naming the path', async () => {
    const headers = { ...(await t.auth('member')), 'content-type': 'application/json' };
    for (const url of ['/api/v1/cases/search', '/api/v1/images/search']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers,
        payload: JSON.stringify({ query: [{ field: 'caseNumber', operator: 'like', values: ['S-1', NUL] }] }),
      });
      expectRefused(response, 'query.0.values.1', url);
    }
  });
});
