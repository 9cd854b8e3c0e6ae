/**
 * The message types a subscription may name (`MESSAGE_TYPES`, also what Herald's resources record)
 * are message types of the official API: a type the reference does not know is one no client of
 * the official API can handle (Herald once recorded `StoreCustomFieldAdded`, which has no
 * counterpart). Checked against the vendored reference facts at their pinned commit.
 */
import { MESSAGE_TYPES } from '@herald/model';
import { checkAgainstReference } from '@herald/testkit';
import { describe, expect, it } from 'vitest';

/** The violations that say a message's `type` is not one the reference lists. */
function unknownTypeViolations(type: string): string[] {
  return checkAgainstReference('Message', { type })
    .filter((violation) => violation.path === 'Message.type')
    .map((violation) => violation.message);
}

describe('the message catalogue against the official reference', () => {
  it.each(Object.entries(MESSAGE_TYPES))('%s: every message type is an official one', (_resourceTypeId, types) => {
    const unknown = types.filter((type) => unknownTypeViolations(type).length > 0);
    expect(unknown).toEqual([]);
  });

  it('a made-up message type is reported (the check can fail)', () => {
    expect(unknownTypeViolations('StoreCustomFieldAdded')).not.toEqual([]);
  });
});
