/**
 * A least-recently-used map bounded by the total size of its values (bytes, or string length
 * for data URIs). The one cache shape the media fetcher, image preparation and render output use.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.budget) return;
    this.delete(key);
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [k, e] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(k);
      this.total -= e.size;
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.size;
  }
}
