import type { Clock } from '@herald/model';

interface Entry<V> {
  value: V;
  /** Epoch ms after which the entry is not used. */
  until: number;
}

/**
 * A bounded in-memory map whose entries expire (by the injected clock). Used for validated access
 * tokens and for external introspection results; keys are token hashes, never tokens.
 *
 * Validated tokens are kept for a short time, never beyond their expiry. Revocation evicts them
 * here at once, so in THIS process a revoked token stops working immediately. Other gateway
 * processes do not hear of it: they keep accepting a token they validated until their entry ends
 * (HERALD_TOKEN_CACHE_SECONDS, 10 s by default; 0 turns caching off for strict revocation).
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` until `until` (epoch ms); nothing is kept if that is not in the future. */
  set(key: string, value: V, until: number): void {
    if (until <= this.clock.now().getTime()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Map order is insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Evicts every entry whose value matches (a deleted client or customer: rare, so a scan is fine). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (matches(entry.value)) this.entries.delete(key);
    }
  }
}
