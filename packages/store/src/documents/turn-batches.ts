/**
 * Gathers the work of one project and type asked for during one turn of the event loop, and
 * hands each group to `issue` on the next turn (setImmediate), or at once when it reaches
 * `maxBatch`: the shared scheduling of the by-id reads and the creates that share a statement.
 */
export class TurnBatches<T> {
  private readonly open = new Map<string, { projectKey: string; typeId: string; items: T[] }>();
  private flushScheduled = false;

  constructor(
    private readonly issue: (projectKey: string, typeId: string, items: T[]) => void,
    private readonly maxBatch: number,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a positive integer (got ${maxBatch})`);
  }

  add(projectKey: string, typeId: string, item: T): void {
    // JSON keeps the pair unambiguous whatever characters the two hold.
    const group = JSON.stringify([projectKey, typeId]);
    let batch = this.open.get(group);
    if (batch === undefined) {
      batch = { projectKey, typeId, items: [] };
      this.open.set(group, batch);
    }
    batch.items.push(item);
    if (batch.items.length >= this.maxBatch) {
      this.open.delete(group);
      this.issue(projectKey, typeId, batch.items);
    } else this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batches = [...this.open.values()];
      this.open.clear();
      for (const batch of batches) this.issue(batch.projectKey, batch.typeId, batch.items);
    });
  }
}
