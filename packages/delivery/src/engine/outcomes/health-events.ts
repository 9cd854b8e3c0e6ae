import { nextHealth, type HealthContext, type HealthEvent, type HealthState, type HealthTransition } from '../health.js';
import { recordedError } from '../records.js';
import type { BatchOutcome } from './batch.js';

/**
 * The health events of one batch: a delivery (if any) first, then its most telling failure — a
 * configuration failure outweighs a temporary one; payload failures say nothing about health.
 */
export function healthEvents(sorted: BatchOutcome): HealthEvent[] {
  const events: HealthEvent[] = [];
  if (sorted.delivered.length > 0) events.push({ type: 'delivered' });
  const configuration = sorted.failures.find((f) => f.failure.class === 'configuration');
  const temporary = sorted.failures.find((f) => f.failure.class === 'temporary');
  if (configuration !== undefined) events.push({ type: 'configurationFailure', error: recordedError(configuration.failure) });
  else if (temporary !== undefined) events.push({ type: 'temporaryFailure', error: recordedError(temporary.failure) });
  return events;
}

export function applyEvents(state: HealthState, events: readonly HealthEvent[], context: HealthContext): HealthTransition {
  let result: HealthTransition = { state, statusChanged: false, dropPending: false };
  for (const event of events) {
    const next = nextHealth(result.state, event, context);
    result = {
      state: next.state,
      statusChanged: result.statusChanged || next.statusChanged,
      dropPending: result.dropPending || next.dropPending,
    };
  }
  // A status that went somewhere and came back is not a change.
  return { ...result, statusChanged: result.state.status !== state.status };
}
