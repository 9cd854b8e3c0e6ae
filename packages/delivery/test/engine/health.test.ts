import { describe, expect, it } from 'vitest';
import { nextHealth, type HealthEvent, type HealthState } from '../../src/engine/health.js';
import type { RecordedError } from '../../src/engine/types.js';

const HOUR = 3_600_000;
const t0 = new Date('2026-03-01T00:00:00Z');
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const config: RecordedError = { class: 'configuration', code: 'QueueDoesNotExist', message: 'gone' };
const temporary: RecordedError = { class: 'temporary', code: 'ECONNREFUSED', message: 'down' };
const production = { configurationWindowMs: 24 * HOUR };

const state = (status: HealthState['status'], since = t0): HealthState => ({ status, since });

describe('nextHealth (§3.3)', () => {
  it.each<[HealthState['status'], HealthEvent, HealthState['status']]>([
    ['Healthy', { type: 'delivered' }, 'Healthy'],
    ['TemporaryError', { type: 'delivered' }, 'Healthy'],
    ['ConfigurationError', { type: 'delivered' }, 'Healthy'],
    ['ConfigurationErrorDeliveryStopped', { type: 'delivered' }, 'Healthy'],
    ['Healthy', { type: 'configurationFailure', error: config }, 'ConfigurationError'],
    ['TemporaryError', { type: 'configurationFailure', error: config }, 'ConfigurationError'],
    ['ConfigurationErrorDeliveryStopped', { type: 'configurationFailure', error: config }, 'ConfigurationErrorDeliveryStopped'],
    ['Healthy', { type: 'temporaryFailure', error: temporary }, 'TemporaryError'],
    ['TemporaryError', { type: 'temporaryFailure', error: temporary }, 'TemporaryError'],
    ['ConfigurationError', { type: 'temporaryFailure', error: temporary }, 'ConfigurationError'],
    ['ConfigurationErrorDeliveryStopped', { type: 'temporaryFailure', error: temporary }, 'ConfigurationErrorDeliveryStopped'],
    ['ConfigurationError', { type: 'destinationChanged' }, 'Healthy'],
    ['ConfigurationErrorDeliveryStopped', { type: 'destinationChanged' }, 'Healthy'],
    ['TemporaryError', { type: 'destinationChanged' }, 'Healthy'],
    ['Healthy', { type: 'windowElapsed' }, 'Healthy'],
  ])('%s + %o → %s', (from, event, to) => {
    const result = nextHealth(state(from), event, { now: at(HOUR), ...production });
    expect(result.state.status).toBe(to);
    expect(result.statusChanged).toBe(from !== to);
  });

  it('starts the ConfigurationError window at the first configuration failure and keeps it', () => {
    const first = nextHealth(state('Healthy'), { type: 'configurationFailure', error: config }, { now: at(HOUR), ...production });
    expect(first.state).toMatchObject({ status: 'ConfigurationError', since: at(HOUR), lastError: config, lastErrorAt: at(HOUR) });
    const later = nextHealth(first.state, { type: 'configurationFailure', error: config }, { now: at(10 * HOUR), ...production });
    expect(later.state.since).toEqual(at(HOUR));
    expect(later.state.lastErrorAt).toEqual(at(10 * HOUR));
    // A temporary failure in between does not restart the window either.
    const outage = nextHealth(later.state, { type: 'temporaryFailure', error: temporary }, { now: at(11 * HOUR), ...production });
    expect(outage.state).toMatchObject({ status: 'ConfigurationError', since: at(HOUR), lastError: temporary });
  });

  it('stops delivery once 24 hours (production) of failed retries have passed, and asks to drop pending deliveries', () => {
    const inError = state('ConfigurationError', t0);
    const before = nextHealth(inError, { type: 'windowElapsed' }, { now: at(24 * HOUR - 1), ...production });
    expect(before.state.status).toBe('ConfigurationError');
    expect(before.dropPending).toBe(false);
    const after = nextHealth(inError, { type: 'windowElapsed' }, { now: at(24 * HOUR), ...production });
    expect(after).toMatchObject({ statusChanged: true, dropPending: true });
    expect(after.state).toMatchObject({ status: 'ConfigurationErrorDeliveryStopped', since: at(24 * HOUR) });
    const failedRetry = nextHealth(inError, { type: 'configurationFailure', error: config }, { now: at(24 * HOUR), ...production });
    expect(failedRetry).toMatchObject({ dropPending: true, state: { status: 'ConfigurationErrorDeliveryStopped' } });
  });

  it('uses the window it is given: 1 hour for development and staging projects', () => {
    const result = nextHealth(state('ConfigurationError'), { type: 'windowElapsed' }, { now: at(HOUR), configurationWindowMs: HOUR });
    expect(result.state.status).toBe('ConfigurationErrorDeliveryStopped');
  });

  it('keeps the last error after recovery, so operators see what happened', () => {
    const failing = nextHealth(state('Healthy'), { type: 'temporaryFailure', error: temporary }, { now: at(1), ...production });
    const recovered = nextHealth(failing.state, { type: 'delivered' }, { now: at(2), ...production });
    expect(recovered.state).toMatchObject({ status: 'Healthy', since: at(2), lastError: temporary, lastErrorAt: at(1) });
    expect(recovered.dropPending).toBe(false);
  });
});
