/**
 * Fault injection shared by every local peer (Service Bus, Event Grid, EventBridge, Pub/Sub).
 *
 * A peer maps each kind to what the real service does in that situation (an HTTP status, an AMQP
 * error condition, a gRPC code), so adapters are tested against the SDK's own error shapes.
 */
export type PeerFault =
  | { kind: 'unknown-entity' }
  | { kind: 'bad-credentials' }
  | { kind: 'throttled' }
  | { kind: 'server-error' }
  | { kind: 'hang' }
  | { kind: 'drop-connection' }
  | { kind: 'payload-too-large' };

export type PeerFaultKind = PeerFault['kind'];

/** A fault applies to the next `times` requests (default: until cleared). */
export interface FaultInjector {
  inject(fault: PeerFault, times?: number): void;
  clear(): void;
}

/**
 * The countdown behind a peer's `faults`: the peer calls `take()` once per request it handles
 * and applies whatever fault comes back. Injecting replaces any fault still pending, so a test
 * always knows exactly which fault the next request meets.
 */
export class FaultSchedule implements FaultInjector {
  private fault: PeerFault | undefined;
  /** Requests the current fault still applies to; `Infinity` = until cleared. */
  private remaining = 0;

  inject(fault: PeerFault, times: number = Number.POSITIVE_INFINITY): void {
    if (!(times > 0)) throw new RangeError(`times must be a positive number, got ${times}`);
    this.fault = fault;
    this.remaining = times;
  }

  clear(): void {
    this.fault = undefined;
    this.remaining = 0;
  }

  /** The fault the current request must meet, consuming one use of it; undefined = behave normally. */
  take(): PeerFault | undefined {
    const fault = this.fault;
    if (fault === undefined) return undefined;
    this.remaining -= 1;
    if (this.remaining <= 0) this.clear();
    return fault;
  }

  /**
   * Like `take`, but only consumes a fault of one of the given kinds. A protocol with several kinds
   * of request (an AMQP token exchange, a link attach, a transfer) uses it to apply each fault where
   * the real service would report it, leaving other faults for the request they belong to.
   */
  takeIf(kinds: readonly PeerFaultKind[]): PeerFault | undefined {
    return this.fault !== undefined && kinds.includes(this.fault.kind) ? this.take() : undefined;
  }

  /** The pending fault without consuming it. */
  peek(): PeerFault | undefined {
    return this.fault;
  }
}
