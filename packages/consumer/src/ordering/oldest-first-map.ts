/**
 * A Map whose oldest entries are evicted in O(1): the sequencer's position cache drops its least
 * recently set entry on nearly every insert once full. Evicting through
 * `map.keys().next()` is not O(1) in V8: deleted entries stay in the table as holes until it is
 * rebuilt, and iteration from the start walks over all of them — at 10,000 entries evicted from
 * the front this measured about ten times slower than a queue (and was the largest ordering cost
 * of a stream of new resources in bench/pipeline.bench.ts).
 *
 * The insertion order is kept in a queue beside the map; an entry deleted or set again stays in
 * the queue, recognised as gone by its value (each `set` must store a fresh object), and the queue
 * is compacted once most of it is gone.
 */
export class OldestFirstMap<Key, Value extends object> {
  private readonly map = new Map<Key, Value>();
  private queuedKeys: Key[] = [];
  private queuedValues: Value[] = [];
  private head = 0;

  get size(): number {
    return this.map.size;
  }

  get(key: Key): Value | undefined {
    return this.map.get(key);
  }

  /** Sets `value` as the newest entry (moved to the back if `key` was there). */
  set(key: Key, value: Value): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.queuedKeys.push(key);
    this.queuedValues.push(value);
    if (this.queuedKeys.length - this.head > 2 * this.map.size + 1_024) this.rebuildQueue();
  }

  delete(key: Key): boolean {
    return this.map.delete(key);
  }

  /** Removes and returns the oldest entry's key and value, if any. */
  shiftOldest(): [Key, Value] | undefined {
    while (this.head < this.queuedKeys.length) {
      const key = this.queuedKeys[this.head] as Key;
      const value = this.queuedValues[this.head] as Value;
      this.head++;
      if (this.map.get(key) !== value) continue;
      this.map.delete(key);
      this.compactIfMostlyConsumed();
      return [key, value];
    }
    return undefined;
  }

  private compactIfMostlyConsumed(): void {
    if (this.head <= 1_024 || this.head * 2 <= this.queuedKeys.length) return;
    this.queuedKeys.splice(0, this.head);
    this.queuedValues.splice(0, this.head);
    this.head = 0;
  }

  /** Many entries deleted or set again since: the queue is the map's order again (a Map iterates in insertion order). */
  private rebuildQueue(): void {
    this.queuedKeys = [...this.map.keys()];
    this.queuedValues = [...this.map.values()];
    this.head = 0;
  }
}
