import { describe, expect, it } from 'vitest';
import { ThumbnailCache } from './thumbnail-cache.ts';

function setup(capacity = 2) {
  const revoked: string[] = [];
  let created = 0;
  const cache = new ThumbnailCache({
    capacity,
    createUrl: () => `blob:${(created += 1)}`,
    revokeUrl: (url) => revoked.push(url),
  });
  const blob = () => Promise.resolve(new Blob(['x']));
  return { cache, revoked, blob, loads: () => created };
}

describe('ThumbnailCache', () => {
  it('loads once and answers later requests from memory', async () => {
    const { cache, blob } = setup();
    let calls = 0;
    const load = () => {
      calls += 1;
      return blob();
    };
    const [first, second] = await Promise.all([cache.load('a', load), cache.load('a', load)]);
    expect(first).toBe('blob:1');
    expect(second).toBe('blob:1');
    expect(await cache.load('a', load)).toBe('blob:1');
    expect(cache.peek('a')).toBe('blob:1');
    expect(calls).toBe(1);
  });

  it('revokes the least recently used URL beyond the capacity', async () => {
    const { cache, blob, revoked } = setup(2);
    await cache.load('a', blob);
    await cache.load('b', blob);
    cache.peek('a');
    await cache.load('c', blob);
    expect(revoked).toEqual(['blob:2']);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe('blob:1');
  });

  it('keeps URLs that a thumbnail on screen still shows', async () => {
    const { cache, blob, revoked } = setup(1);
    cache.retain('a');
    await cache.load('a', blob);
    await cache.load('b', blob);
    expect(revoked).toEqual(['blob:2']);
    cache.release('a');
    expect(cache.peek('a')).toBe('blob:1');
  });

  it('evicts a released URL once over capacity', async () => {
    const { cache, blob, revoked } = setup(1);
    cache.retain('a');
    cache.retain('b');
    await cache.load('a', blob);
    await cache.load('b', blob);
    expect(revoked).toEqual([]);
    cache.release('a');
    expect(revoked).toEqual(['blob:1']);
  });

  it('does not cache failures', async () => {
    const { cache, blob } = setup();
    await expect(cache.load('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(cache.size).toBe(0);
    expect(await cache.load('a', blob)).toBe('blob:1');
  });

  it('revokes an invalidated URL and loads again next time', async () => {
    const { cache, blob, revoked } = setup();
    await cache.load('a', blob);
    cache.invalidate('a');
    expect(revoked).toEqual(['blob:1']);
    expect(await cache.load('a', blob)).toBe('blob:2');
  });
});
