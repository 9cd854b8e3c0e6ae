import type { AnyDelivery, EventDelivery, Delivery } from '../delivery.js';
import type { DeliveryContext, DeliveryHandler, EventHandler } from '../consumer/types.js';

/** What became of one handler call. */
export type SpyState = 'started' | 'handled' | 'failed';

export interface SpyRecord {
  readonly dedupKey: string;
  readonly delivery: AnyDelivery;
  readonly context: DeliveryContext;
  readonly state: SpyState;
  /** What the handler threw, for `failed`. */
  readonly error?: unknown;
}

type Inner = (delivery: AnyDelivery, context: DeliveryContext) => Promise<void> | void;

interface Waiter {
  readonly dedupKey: string;
  readonly state: SpyState;
  readonly resolve: (record: SpyRecord) => void;
}

/**
 * Wraps your handler (or none) for tests: records every call by dedup key, and lets a test await
 * a delivery instead of sleeping (`await spy.waitFor(key, 'handled')`, like message-queue-toolkit's
 * HandlerSpy). Pass `spy.handler` (and `spy.onEvent`) to `createConsumer`.
 */
export class HandlerSpy {
  private readonly calls: SpyRecord[] = [];
  private readonly latest = new Map<string, SpyRecord[]>();
  private waiters: Waiter[] = [];
  readonly handler: DeliveryHandler;
  readonly onEvent: EventHandler;

  constructor(inner: Inner = () => undefined) {
    this.handler = (delivery: Delivery, context) => this.run(inner, delivery, context);
    this.onEvent = (delivery: EventDelivery, context) => this.run(inner, delivery, context);
  }

  /** Every state change so far, in order. */
  get records(): readonly SpyRecord[] {
    return this.calls;
  }

  /** The deliveries handled successfully, in order. */
  get handled(): readonly AnyDelivery[] {
    return this.calls.filter((record) => record.state === 'handled').map((record) => record.delivery);
  }

  /**
   * Resolves with the record once the delivery with this dedup key (`context.dedupKey`, e.g.
   * `herald:proj:order:o-1:m:3`) reached `state` — at once if it already has. Rejects after
   * `timeoutMs` (real time, default 5 s) so a test that waits for nothing fails with a reason.
   */
  waitFor(dedupKey: string, state: SpyState = 'handled', timeoutMs = 5_000): Promise<SpyRecord> {
    const done = this.latest.get(dedupKey)?.find((record) => record.state === state);
    if (done !== undefined) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== entry);
        reject(new Error(`no delivery ${dedupKey} reached "${state}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const entry: Waiter = {
        dedupKey,
        state,
        resolve: (record) => {
          clearTimeout(timer);
          resolve(record);
        },
      };
      this.waiters.push(entry);
    });
  }

  private async run(inner: Inner, delivery: AnyDelivery, context: DeliveryContext): Promise<void> {
    this.note({ dedupKey: context.dedupKey, delivery, context, state: 'started' });
    try {
      await inner(delivery, context);
    } catch (error) {
      this.note({ dedupKey: context.dedupKey, delivery, context, state: 'failed', error });
      throw error;
    }
    this.note({ dedupKey: context.dedupKey, delivery, context, state: 'handled' });
  }

  private note(record: SpyRecord): void {
    this.calls.push(record);
    const forKey = this.latest.get(record.dedupKey) ?? [];
    forKey.push(record);
    this.latest.set(record.dedupKey, forKey);
    const ready = this.waiters.filter((waiter) => waiter.dedupKey === record.dedupKey && waiter.state === record.state);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(record);
  }
}
