import { describe, expect, it } from 'vitest';
import { formatPlatform } from '../../src/format/formatted.js';
import { withoutMessagePayload } from '../../src/format/payload-not-included.js';
import { validateFormat } from '../../src/index.js';
import { encodeSqs } from '../../src/destinations/sqs/encode.js';
import { createdPayload, messagePayload, oversizedMessage } from '../destinations/support/payloads.js';

describe('validateFormat (§2.4 Format)', () => {
  it('defaults to Platform and accepts CloudEvents 1.0', () => {
    expect(validateFormat(undefined)).toEqual({ ok: true, format: { type: 'Platform' } });
    expect(validateFormat({ type: 'CloudEvents', cloudEventsVersion: '1.0' })).toEqual({
      ok: true,
      format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
    });
  });

  it('rejects other CloudEvents versions and unknown types', () => {
    expect(validateFormat({ type: 'CloudEvents', cloudEventsVersion: '0.1' })).toEqual({
      ok: false,
      errors: ['format.cloudEventsVersion must be \'1.0\' (got "0.1").'],
    });
    expect(validateFormat({ type: 'CloudEvents' }).ok).toBe(false);
    expect(validateFormat({ type: 'Xml' }).ok).toBe(false);
  });

  it('Event Grid takes CloudEvents only', () => {
    expect(validateFormat({ type: 'Platform' }, 'EventGrid')).toEqual({
      ok: false,
      errors: ["Destination type 'EventGrid' supports only the format(s) CloudEvents."],
    });
    expect(validateFormat({ type: 'CloudEvents', cloudEventsVersion: '1.0' }, 'EventGrid').ok).toBe(true);
  });
});

describe('Platform format and the payload-not-included fallback (§6.2)', () => {
  it('delivers the payload as is', () => {
    const payload = messagePayload(1);
    expect(JSON.parse(formatPlatform(payload).json)).toEqual(payload);
    expect(JSON.parse(formatPlatform(createdPayload(1)).json)).toEqual(createdPayload(1));
  });

  it('keeps the common fields and drops the message-specific ones', () => {
    const stripped = withoutMessagePayload(oversizedMessage(2, 10), 262_144);
    expect(Object.keys(stripped).sort()).toEqual(
      [
        'createdAt',
        'createdBy',
        'id',
        'lastModifiedAt',
        'lastModifiedBy',
        'notificationType',
        'payloadNotIncluded',
        'projectKey',
        'resource',
        'resourceUserProvidedIdentifiers',
        'resourceVersion',
        'sequenceNumber',
        'version',
      ].sort(),
    );
  });

  it('uses the fallback exactly above the limit, measured in UTF-8 bytes', () => {
    const base = messagePayload(3, { note: '' });
    const baseBytes = Buffer.byteLength(JSON.stringify(base));
    // 'ü' is 2 bytes: a payload of exactly 262144 bytes fits, one byte more does not.
    const fill = (bytes: number) => messagePayload(3, { note: 'ü'.repeat(Math.floor(bytes / 2)) + 'a'.repeat(bytes % 2) });
    const exact = encodeSqs(fill(262_144 - baseBytes), { type: 'Platform' }, { cloudEventsTypePrefix: 'x' });
    const over = encodeSqs(fill(262_145 - baseBytes), { type: 'Platform' }, { cloudEventsTypePrefix: 'x' });
    expect(exact).toMatchObject({ ok: true, message: { sizeBytes: 262_144, payloadNotIncluded: false } });
    expect(over).toMatchObject({ ok: true, message: { payloadNotIncluded: true } });
  });
});
