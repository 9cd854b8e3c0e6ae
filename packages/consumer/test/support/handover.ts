import { createConsumer, MemoryDedupStore, type Consumer, type GapNotice } from '../../src/index.js';

export interface Handled {
  readonly instance: string;
  readonly sequence: number;
  readonly gap: GapNotice | undefined;
}

/**
 * Consumer instances of one fleet (one dedup store, ordering with a short wait), recording which
 * instance handled which message and whether past a gap: for tests of a hand-over, where instance
 * A stops and B takes over (a rolling deploy).
 */
export function fleet(maxWaitMs = 1_000): { handled: Handled[]; consumerOf(instance: string): Consumer } {
  const store = new MemoryDedupStore();
  const handled: Handled[] = [];
  return {
    handled,
    consumerOf: (instance) =>
      createConsumer({
        dedup: store,
        ordering: { maxWaitMs },
        handler: (delivery, context) => {
          if (delivery.notificationType === 'Message') handled.push({ instance, sequence: delivery.payload.sequenceNumber, gap: context.gap });
        },
      }),
  };
}

/** What a hand-over must end with: B handled m1 then m2, in order, without a gap. */
export const HANDED_OVER_IN_ORDER: readonly Handled[] = [
  { instance: 'B', sequence: 1, gap: undefined },
  { instance: 'B', sequence: 2, gap: undefined },
];
