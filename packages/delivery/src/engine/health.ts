import type { SubscriptionHealthStatus } from '@herald/model';
import type { RecordedError } from './types.js';

/** A subscription's health (§3.3) as the engine keeps it, beside (never inside) the document. */
export interface HealthState {
  status: SubscriptionHealthStatus;
  /** When the current status was entered; the ConfigurationError window counts from here. */
  since: Date;
  /** The last failure seen, kept after recovery so operators can see what happened. */
  lastError?: RecordedError;
  lastErrorAt?: Date;
}

export type HealthEvent =
  /** A delivery was acknowledged by the destination. */
  | { type: 'delivered' }
  | { type: 'configurationFailure'; error: RecordedError }
  | { type: 'temporaryFailure'; error: RecordedError }
  /** Time passed: the ConfigurationError window may have elapsed (checked against the clock). */
  | { type: 'windowElapsed' }
  /** `changeDestination` succeeded: its test message was delivered (§4.2 rule 3). */
  | { type: 'destinationChanged' };

export interface HealthContext {
  now: Date;
  /** §3.3: 24 h for production projects, 1 h for development and staging. */
  configurationWindowMs: number;
}

export interface HealthTransition {
  state: HealthState;
  /** The status differs from before (the row must be written and metrics updated). */
  statusChanged: boolean;
  /** §3.3 "Undelivered messages are dropped": entering ConfigurationErrorDeliveryStopped. */
  dropPending: boolean;
}

export const INITIAL_HEALTH_STATUS: SubscriptionHealthStatus = 'Healthy';

export function initialHealth(now: Date): HealthState {
  return { status: INITIAL_HEALTH_STATUS, since: now };
}

/** End of the ConfigurationError window of a state, when it is in one. */
export function configurationWindowEnd(state: HealthState, configurationWindowMs: number): Date | undefined {
  if (state.status !== 'ConfigurationError') return undefined;
  return new Date(state.since.getTime() + configurationWindowMs);
}

/**
 * The §3.3 state machine, pure. Transitions:
 *
 * | from | event | to |
 * |---|---|---|
 * | any | delivered | Healthy ("configuration fixed", "new message delivered successfully") |
 * | any | destinationChanged | Healthy (§3.3 last row) |
 * | Healthy, TemporaryError | configurationFailure | ConfigurationError (window starts now) |
 * | ConfigurationError | configurationFailure, windowElapsed | ConfigurationErrorDeliveryStopped once the window has elapsed, else unchanged |
 * | Healthy | temporaryFailure | TemporaryError |
 * | ConfigurationError, …Stopped | temporaryFailure | unchanged: an outage proves nothing about the configuration, and must not restart the window |
 * | ConfigurationErrorDeliveryStopped | configurationFailure | unchanged |
 *
 * The spec leaves TemporaryError's entry and exit open ("not shown"); we enter it on a temporary
 * failure from Healthy and leave it on the next delivery.
 */
export function nextHealth(current: HealthState, event: HealthEvent, context: HealthContext): HealthTransition {
  const { now } = context;
  switch (event.type) {
    case 'delivered':
    case 'destinationChanged':
      return moveTo(current, 'Healthy', now);
    case 'configurationFailure': {
      const recorded = withError(current, event.error, now);
      if (current.status === 'Healthy' || current.status === 'TemporaryError') {
        return moveTo(recorded, 'ConfigurationError', now);
      }
      if (current.status === 'ConfigurationError' && windowElapsed(current, context)) {
        return moveTo(recorded, 'ConfigurationErrorDeliveryStopped', now);
      }
      return unchanged(recorded);
    }
    case 'temporaryFailure': {
      const recorded = withError(current, event.error, now);
      if (current.status === 'Healthy') return moveTo(recorded, 'TemporaryError', now);
      return unchanged(recorded);
    }
    case 'windowElapsed':
      if (current.status === 'ConfigurationError' && windowElapsed(current, context)) {
        return moveTo(current, 'ConfigurationErrorDeliveryStopped', now);
      }
      return unchanged(current);
  }
}

function windowElapsed(state: HealthState, context: HealthContext): boolean {
  return context.now.getTime() - state.since.getTime() >= context.configurationWindowMs;
}

function withError(state: HealthState, error: RecordedError, now: Date): HealthState {
  return { ...state, lastError: error, lastErrorAt: now };
}

function moveTo(state: HealthState, status: SubscriptionHealthStatus, now: Date): HealthTransition {
  if (state.status === status) return unchanged(state);
  return {
    state: { ...state, status, since: now },
    statusChanged: true,
    dropPending: status === 'ConfigurationErrorDeliveryStopped',
  };
}

function unchanged(state: HealthState): HealthTransition {
  return { state, statusChanged: false, dropPending: false };
}
