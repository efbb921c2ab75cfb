import type { Clock } from '../../clock.ts';
import type { CachedPost, PostCache, SingleFlight } from './interface.ts';

/** A bounded LRU with expiry, for the single-process mode. */
export class MemoryPostCache implements PostCache {
  private readonly entries = new Map<string, { value: CachedPost; expires: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  async get(id: string): Promise<CachedPost | null> {
    const e = this.entries.get(id);
    if (!e) return null;
    if (e.expires <= this.clock()) {
      this.entries.delete(id);
      return null;
    }
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.value;
  }

  async set(id: string, value: CachedPost, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.entries.delete(id);
    this.entries.set(id, { value, expires: this.clock() + ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }
}

export class MemorySingleFlight implements SingleFlight {
  private readonly inflight = new Map<string, Promise<unknown>>();

  run<T>(key: string, load: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(key);
    if (existing) return existing as Promise<T>;
    const p = load().finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  async close(): Promise<void> {}
}
