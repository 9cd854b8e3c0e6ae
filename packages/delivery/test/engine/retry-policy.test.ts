import { describe, expect, it } from 'vitest';
import type { DeliveryFailure } from '../../src/destinations/port.js';
import { createRetryPolicy, decideAfterFailure, DEFAULT_RETRY_POLICY, retryDelayMs } from '../../src/engine/retry-policy.js';

const HOUR = 3_600_000;
const now = new Date('2026-03-01T12:00:00Z');
const temporary: DeliveryFailure = { class: 'temporary', code: 'ECONNREFUSED', message: 'down' };
const configuration: DeliveryFailure = { class: 'configuration', code: 'QueueDoesNotExist', message: 'gone' };
const payload: DeliveryFailure = { class: 'payload', code: 'PayloadTooLarge', message: 'too big' };
const middle = (): number => 0.5;

describe('retry policy', () => {
  it('backs off exponentially up to the cap', () => {
    const delays = [1, 2, 3, 4, 10, 30].map((failures) => retryDelayMs(DEFAULT_RETRY_POLICY, failures, undefined, middle));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 512_000, 600_000]);
  });

  it('spreads delays by ±20 % jitter', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 3, undefined, () => 0)).toBe(3_200);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 3, undefined, () => 0.999999)).toBe(4_800);
  });

  it('honours Retry-After, clamped', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 30_000, middle)).toBe(30_000);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 5 * HOUR, middle)).toBe(15 * 60_000);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 5, 1, middle)).toBe(16_000);
  });

  it('rejects nonsensical policies', () => {
    expect(() => createRetryPolicy({ backoff: { jitter: 1.5 } })).toThrow(RangeError);
    expect(() => createRetryPolicy({ backoff: { initialMs: 0 } })).toThrow(RangeError);
  });

  const context = { now, status: 'Healthy' as const, failures: 1, firstFailureAt: now, configurationWindowEndsAt: undefined, random: middle };

  it('drops payload failures at once', () => {
    expect(decideAfterFailure(DEFAULT_RETRY_POLICY, payload, context)).toEqual({ action: 'drop', reason: 'PayloadError' });
  });

  it('retries temporary failures up to 48 hours after the first failure, the last try at the window end', () => {
    const first = new Date(now.getTime() - 48 * HOUR + 1_000);
    const nearEnd = decideAfterFailure(DEFAULT_RETRY_POLICY, temporary, { ...context, failures: 40, firstFailureAt: first });
    expect(nearEnd).toEqual({ action: 'retry', dueAt: new Date(first.getTime() + 48 * HOUR) });
    const atEnd = decideAfterFailure(DEFAULT_RETRY_POLICY, temporary, {
      ...context,
      failures: 41,
      firstFailureAt: new Date(now.getTime() - 48 * HOUR),
    });
    expect(atEnd).toEqual({ action: 'drop', reason: 'TemporaryErrorWindowElapsed' });
  });

  it('never schedules a configuration retry past the subscription window end', () => {
    const windowEnd = new Date(now.getTime() + 2_000);
    const decision = decideAfterFailure(DEFAULT_RETRY_POLICY, configuration, { ...context, failures: 10, configurationWindowEndsAt: windowEnd });
    expect(decision).toEqual({ action: 'retry', dueAt: windowEnd });
  });

  it('gives deliveries of a stopped subscription one try against the configuration (§3.3), and retries outages (§6.2)', () => {
    const stopped = { ...context, status: 'ConfigurationErrorDeliveryStopped' as const };
    expect(decideAfterFailure(DEFAULT_RETRY_POLICY, configuration, stopped)).toEqual({ action: 'drop', reason: 'ConfigurationErrorDeliveryStopped' });
    expect(decideAfterFailure(DEFAULT_RETRY_POLICY, temporary, stopped)).toMatchObject({ action: 'retry' });
  });
});
