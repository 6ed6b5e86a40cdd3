import { describe, expect, it } from 'vitest';
import { createTileCache } from './tile-cache.ts';

const tile = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill);

describe('createTileCache', () => {
  it('reads a tile once and serves it from memory afterwards', async () => {
    const cache = createTileCache(1000);
    let reads = 0;
    const load = async () => {
      reads++;
      return tile(100);
    };
    const [a, b] = await Promise.all([cache.get('t', load), cache.get('t', load)]);
    expect(await cache.get('t', load)).toBe(a);
    expect(b).toBe(a);
    expect(reads).toBe(1);
    expect(cache.bytes).toBe(100);
  });

  it('drops the least recently used tiles to stay within its budget', async () => {
    const cache = createTileCache(800);
    const reads: string[] = [];
    const load = (key: string) => async () => {
      reads.push(key);
      return tile(100);
    };
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) await cache.get(key, load(key));
    await cache.get('a', load('a'));
    await cache.get('i', load('i'));
    expect(cache.bytes).toBe(800);
    reads.length = 0;
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    expect(reads).toEqual(['b']);
  });

  it('keeps no tile larger than an eighth of the budget, nor anything when the budget is 0', async () => {
    const big = createTileCache(800);
    await big.get('x', async () => tile(101));
    expect(big.bytes).toBe(0);
    const off = createTileCache(0);
    await off.get('x', async () => tile(1));
    expect(off.bytes).toBe(0);
  });

  it('does not keep a failed read: the next request tries again', async () => {
    const cache = createTileCache(1000);
    await expect(cache.get('t', () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    expect(await cache.get('t', async () => tile(10, 7))).toEqual(tile(10, 7));
  });
});
