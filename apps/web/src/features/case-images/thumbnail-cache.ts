/**
 * Object URLs of loaded thumbnails, by image id. Each URL holds a JPEG in memory until revoked, so the cache keeps at
 * most `capacity` of them: when full, the least recently used one that no thumbnail on screen still shows is revoked.
 * Loads in flight are shared, so two rows showing the same image fetch it once.
 */
export interface ThumbnailCacheOptions {
  capacity: number;
  createUrl: (blob: Blob) => string;
  revokeUrl: (url: string) => void;
}

interface Entry {
  url?: string;
  pending?: Promise<string>;
  users: number;
}

export class ThumbnailCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: ThumbnailCacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The URL already loaded for an image, if any (marks it as recently used). */
  peek(id: string): string | undefined {
    const entry = this.entries.get(id);
    if (entry?.url === undefined) return undefined;
    this.touch(id, entry);
    return entry.url;
  }

  /** The URL of an image's thumbnail, loading it with `load` unless it is cached or already loading. */
  load(id: string, load: () => Promise<Blob>): Promise<string> {
    const cached = this.entries.get(id);
    if (cached?.url !== undefined) {
      this.touch(id, cached);
      return Promise.resolve(cached.url);
    }
    if (cached?.pending) return cached.pending;
    const entry: Entry = cached ?? { users: 0 };
    const pending = load().then(
      (blob) => {
        // Dropped (evicted, invalidated) while loading: nobody will revoke this URL later, so don't keep one.
        if (this.entries.get(id) !== entry) return this.options.createUrl(blob);
        entry.url = this.options.createUrl(blob);
        entry.pending = undefined;
        this.evict();
        return entry.url;
      },
      (error: unknown) => {
        // Failures are not cached: the next showing tries again.
        if (this.entries.get(id) === entry && entry.users === 0) this.entries.delete(id);
        else entry.pending = undefined;
        throw error;
      },
    );
    entry.pending = pending;
    this.entries.set(id, entry);
    return pending;
  }

  /** A thumbnail on screen shows this image: its URL is not revoked until {@link release}. */
  retain(id: string): void {
    const entry = this.entries.get(id) ?? { users: 0 };
    entry.users += 1;
    this.entries.set(id, entry);
  }

  release(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.users = Math.max(0, entry.users - 1);
    if (entry.users === 0 && entry.url === undefined && !entry.pending) this.entries.delete(id);
    this.evict();
  }

  /** Forgets an image (deleted, reprocessed) and revokes its URL: the next showing loads it again. */
  invalidate(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    if (entry.url !== undefined) this.options.revokeUrl(entry.url);
  }

  private touch(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private evict(): void {
    let loaded = [...this.entries.values()].filter((entry) => entry.url !== undefined).length;
    for (const [id, entry] of this.entries) {
      if (loaded <= this.options.capacity) return;
      if (entry.url === undefined || entry.users > 0) continue;
      this.entries.delete(id);
      this.options.revokeUrl(entry.url);
      loaded -= 1;
    }
  }
}
