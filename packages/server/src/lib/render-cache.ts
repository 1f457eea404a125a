/**
 * A bounded LRU of rendered JSON bodies. Keys must name everything a body depends on (for a
 * draft: id, revision, parent version, representation, locale, vocabulary generation), so an
 * entry can never be stale, and any number of app servers may each keep their own.
 */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: string): void {
    // A body larger than a tenth of the cache would evict everything else for one entry.
    if (value.length * 2 > this.maxBytes / 10) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= old.length * 2;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.length * 2;
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.bytes -= (this.entries.get(oldest)?.length ?? 0) * 2;
      this.entries.delete(oldest);
    }
  }
}
