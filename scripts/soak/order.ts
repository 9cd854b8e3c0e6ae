/**
 * Per-resource order as the handlers ran it. The consumer orders each resource's two lanes
 * (consumer README, "Ordering"): its messages by `sequenceNumber` and its change notifications by
 * version. Fed the first execution of each dedup key in the order the handlers ran (the order of
 * the shared HANDLED file), it counts the executions that came after a later one of their lane: a
 * release the consumer marked `late` (what the README documents for a predecessor that arrived after
 * its lane moved on) or one it did not mark (an ordering bug).
 */

/** `herald:{project}:{typeId}:{id}:c:{ResourceCreated|ResourceUpdated}:{version}` or `…:{id}:m:{sequenceNumber}`. */
export function laneOf(dedupKey: string): { lane: string; position: number } | undefined {
  const parts = dedupKey.split(':');
  const position = Number(parts.at(-1));
  const kind = parts[4];
  if (parts.length < 6 || (kind !== 'c' && kind !== 'm') || !Number.isInteger(position)) return undefined;
  return { lane: parts.slice(0, 5).join(':'), position };
}

export class LaneOrder {
  private readonly highest = new Map<string, number>();
  /** Executions behind their lane's highest earlier one, marked `late` by the consumer. */
  behindMarkedLate = 0;
  /** Executions behind their lane's highest earlier one without a mark: order broken. */
  behindUnmarked = 0;
  readonly unmarkedExamples: string[] = [];

  /** `released`: how the consumer released it (`late`, `gap` or `-`). */
  note(dedupKey: string, released: string): void {
    const parsed = laneOf(dedupKey);
    if (parsed === undefined) return;
    const highest = this.highest.get(parsed.lane);
    if (highest === undefined || parsed.position > highest) {
      this.highest.set(parsed.lane, parsed.position);
      return;
    }
    if (released === 'late') this.behindMarkedLate++;
    else {
      this.behindUnmarked++;
      if (this.unmarkedExamples.length < 5) this.unmarkedExamples.push(`${dedupKey} after ${highest}`);
    }
  }
}
