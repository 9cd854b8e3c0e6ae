import type { DeliveryPayload } from '@herald/model';
import type { AnyDeliveryPayload } from '../delivery.js';
import type { PositionLane } from '../dedup/dedup-store.js';

/*
 * §6.2 ordering keys. Each resource has two independent lanes:
 * - messages ('m'): ordered by sequenceNumber 1, 2, 3 … (consecutive per resource);
 * - changes ('c'): a chain by version, linked by ResourceUpdated.oldVersion (versions are not
 *   consecutive), started by ResourceCreated and ended by ResourceDeleted.
 * A lane's position is the ordinal of the last released delivery. Change ordinals are
 * `version * 2 + (deleted ? 1 : 0)` so a deletion at version v sorts after the update to v.
 */

export interface OrderKey {
  readonly lane: PositionLane;
  readonly ordinal: number;
}

export function orderKeyOf(payload: DeliveryPayload): OrderKey {
  if (payload.notificationType === 'Message') return { lane: 'm', ordinal: payload.sequenceNumber };
  return { lane: 'c', ordinal: changeOrdinal(payload) };
}

/** The ordinal of a change notification in its resource's 'c' lane. */
export function changeOrdinal(payload: Exclude<DeliveryPayload, { notificationType: 'Message' }>): number {
  return payload.version * 2 + (payload.notificationType === 'ResourceDeleted' ? 1 : 0);
}

/** The sequenceNumber or version an ordinal stands for (what a handler sees in a gap notice). */
export function positionValueOf(lane: PositionLane, ordinal: number): number {
  return lane === 'm' ? ordinal : Math.floor(ordinal / 2);
}

/**
 * Is this delivery the one that follows `position` (undefined: nothing released yet and nothing
 * stored)? Without a position only a stream's true start is next: sequenceNumber 1, or
 * ResourceCreated; everything else waits (see `unknownStart`).
 */
export function isNextInLane(position: number | undefined, payload: AnyDeliveryPayload): boolean {
  switch (payload.notificationType) {
    case 'Event':
      // Events have no order (reference: EventDeliveryPayload has neither sequence nor version).
      return true;
    case 'Message':
      return position === undefined ? payload.sequenceNumber === 1 : payload.sequenceNumber === position + 1;
    case 'ResourceCreated':
      // Starts a chain; a resource is created once, so anything after a known position is next too.
      return position === undefined || payload.version * 2 > position;
    case 'ResourceUpdated':
      return position !== undefined && position % 2 === 0 && payload.oldVersion === position / 2;
    case 'ResourceDeleted':
      // §6.2: the version "at deletion", without oldVersion: the deletion does not modify the
      // resource, so it follows the change that produced that version (as Herald's store emits it).
      // A higher version means an update is still missing.
      return position !== undefined && position % 2 === 0 && payload.version === position / 2;
  }
}
