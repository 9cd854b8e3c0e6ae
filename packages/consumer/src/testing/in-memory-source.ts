import type { Consumer, ProcessOutcome } from '../consumer/types.js';
import type { RawDelivery } from '../parse/raw-delivery.js';

/** How the consumer settled one pushed input, as a transport would have been told. */
export interface SettledInput {
  readonly raw: RawDelivery;
  readonly action: 'ack' | 'nack' | 'dead-letter';
  /** For `nack`: after how long the transport should deliver it again. */
  readonly retryAfterMs?: number;
  /** For `dead-letter`: why. */
  readonly reason?: string;
}

/**
 * A source for tests: push raw bodies (what a queue would hold: Platform JSON, a CloudEvent, an
 * SNS or EventBridge envelope …) into a consumer, and see how each input was settled. Nothing is
 * redelivered by itself: push a nacked input again to retry it.
 */
export class InMemorySource {
  private readonly log: SettledInput[] = [];

  constructor(private readonly consumer: Consumer) {}

  /** Every settled input, in settlement order. */
  get settled(): readonly SettledInput[] {
    return this.log;
  }

  /**
   * Pushes a body (a string as received, or a value to send as JSON) and resolves once it is
   * settled. `source` says which transport it stands for (default `raw`: any shape but binary-mode
   * CloudEvents); `deliveryAttempt` is the transport's delivery count.
   */
  push(body: string | object, options: { readonly source?: 'raw' | 'sqs' | 'event-grid'; readonly deliveryAttempt?: number } = {}): Promise<ProcessOutcome> {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const input: RawDelivery =
      options.deliveryAttempt === undefined
        ? { source: options.source ?? 'raw', body: text }
        : { source: options.source ?? 'raw', body: text, deliveryAttempt: options.deliveryAttempt };
    return this.consumer.process(input, {
      ack: () => void this.log.push({ raw: input, action: 'ack' }),
      nack: (retryAfterMs) => void this.log.push({ raw: input, action: 'nack', retryAfterMs }),
      deadLetter: (reason) => void this.log.push({ raw: input, action: 'dead-letter', reason }),
    });
  }
}
