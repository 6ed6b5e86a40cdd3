/**
 * The most recently served stored tiles, ready to send, up to a byte budget. Pyramids never change
 * under a key, so an entry is only ever dropped for room. A tile being read is shared by everyone
 * who asks for it meanwhile, so a burst of requests for one tile reads it once.
 */
export function createTileCache(maxBytes: number, onLookup?: (hit: boolean) => void) {
  const entries = new Map<string, Buffer>();
  const loading = new Map<string, Promise<Buffer>>();
  let bytes = 0;
  // One tile may not push out more than an eighth of the budget.
  const largest = maxBytes / 8;

  function keep(key: string, tile: Buffer): void {
    if (tile.length > largest) return;
    entries.set(key, tile);
    bytes += tile.length;
    for (const [oldKey, old] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldKey);
      bytes -= old.length;
    }
  }

  /** The cached tile, made the most recently used; a miss is left for `get` to count. */
  function peek(key: string): Buffer | undefined {
    const cached = entries.get(key);
    if (cached == null) return undefined;
    onLookup?.(true);
    entries.delete(key);
    entries.set(key, cached);
    return cached;
  }

  return {
    peek,

    get(key: string, load: () => Promise<Buffer>): Promise<Buffer> {
      const cached = peek(key);
      if (cached != null) return Promise.resolve(cached);
      onLookup?.(false);
      if (maxBytes === 0) return load();
      let pending = loading.get(key);
      if (pending == null) {
        pending = load()
          .then((tile) => {
            keep(key, tile);
            return tile;
          })
          .finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      return pending;
    },

    get bytes(): number {
      return bytes;
    },
  };
}

export type TileCache = ReturnType<typeof createTileCache>;
