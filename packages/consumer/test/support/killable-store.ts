import type { DedupStore } from '../../src/index.js';

/**
 * A store as seen by one process: counts calls in flight (to know when the process is idle) and,
 * once the process is "dead", neither reaches the store nor answers (a dead process can't).
 */
export class KillableStore implements DedupStore {
  readonly kind: DedupStore['kind'];
  readonly keyPrefix: string;
  readonly leaseMs: number;
  inFlight = 0;
  dead = false;

  constructor(private readonly store: DedupStore) {
    this.kind = store.kind;
    this.keyPrefix = store.keyPrefix;
    this.leaseMs = store.leaseMs;
  }

  private call<T>(operation: () => Promise<T>): Promise<T> {
    if (this.dead) return new Promise<T>(() => undefined);
    this.inFlight++;
    return operation().then(
      (result) => {
        this.inFlight--;
        return this.dead ? new Promise<T>(() => undefined) : result;
      },
      (error: unknown) => {
        this.inFlight--;
        return this.dead ? new Promise<T>(() => undefined) : Promise.reject(error);
      },
    );
  }

  claim: DedupStore['claim'] = (requests) => this.call(() => this.store.claim(requests));
  renew: DedupStore['renew'] = (leases) => this.call(() => this.store.renew(leases));
  release: DedupStore['release'] = (leases) => this.call(() => this.store.release(leases));
  complete: DedupStore['complete'] = (requests) => this.call(() => this.store.complete(requests));
  readPositions: DedupStore['readPositions'] = (streams) => this.call(() => this.store.readPositions(streams));
}
