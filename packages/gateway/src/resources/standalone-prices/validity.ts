import type { MessagePayload } from '@herald/model';
import type { Queryable } from '@herald/store';
import { updateReads } from '../carts/catalogue.js';
import { optionalDateTime } from '../inventory/fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { assertScopeFree, assertValidityOrder } from './price-scope.js';
import type { StandalonePrice } from './standalone-price.js';

type Bound = 'validFrom' | 'validUntil';

function assignBound(price: StandalonePrice, field: Bound, value: string | undefined): void {
  if (value === undefined) delete price[field];
  else price[field] = value;
}

/** The previous and new value of one bound, in the reference's message field names. */
function boundFields(field: Bound, value: string | undefined, previous: string | undefined): Record<string, string> {
  const previousName = field === 'validFrom' ? 'previousValidFrom' : 'previousValidUntil';
  return { ...(value === undefined ? {} : { [field]: value }), ...(previous === undefined ? {} : { [previousName]: previous }) };
}

/**
 * setValidFrom, setValidUntil and setValidFromAndUntil: the validity is part of the price scope, so
 * each change is checked against the other prices of the sku (price-scope.ts). No change, no message.
 */
export function validityActions(): ActionHandlers<StandalonePrice> {
  // The scope check reads through the update's transaction (its row lock: price-documents.ts).
  const setBounds = async (price: StandalonePrice, { db, projectKey }: { db: Queryable; projectKey: string }, bounds: Partial<Record<Bound, unknown>>) => {
    const next: Record<Bound, string | undefined> = { validFrom: price.validFrom, validUntil: price.validUntil };
    for (const field of Object.keys(bounds) as Bound[]) next[field] = optionalDateTime(bounds[field], field);
    const previous = { validFrom: price.validFrom, validUntil: price.validUntil };
    if (next.validFrom === previous.validFrom && next.validUntil === previous.validUntil) return undefined;
    assertValidityOrder(next.validFrom, next.validUntil);
    await assertScopeFree(db, projectKey, { ...price, ...next });
    assignBound(price, 'validFrom', next.validFrom);
    assignBound(price, 'validUntil', next.validUntil);
    return { next, previous };
  };
  return {
    async setValidFrom(price, action, { ctx, reader }): Promise<MessagePayload[]> {
      const change = await setBounds(price, updateReads(ctx, reader), { validFrom: action.validFrom });
      return change === undefined
        ? []
        : [{ type: 'StandalonePriceValidFromSet', ...boundFields('validFrom', change.next.validFrom, change.previous.validFrom) }];
    },
    async setValidUntil(price, action, { ctx, reader }): Promise<MessagePayload[]> {
      const change = await setBounds(price, updateReads(ctx, reader), { validUntil: action.validUntil });
      return change === undefined
        ? []
        : [{ type: 'StandalonePriceValidUntilSet', ...boundFields('validUntil', change.next.validUntil, change.previous.validUntil) }];
    },
    async setValidFromAndUntil(price, action, { ctx, reader }): Promise<MessagePayload[]> {
      const change = await setBounds(price, updateReads(ctx, reader), { validFrom: action.validFrom, validUntil: action.validUntil });
      if (change === undefined) return [];
      return [
        {
          type: 'StandalonePriceValidFromAndUntilSet',
          ...boundFields('validFrom', change.next.validFrom, change.previous.validFrom),
          ...boundFields('validUntil', change.next.validUntil, change.previous.validUntil),
        },
      ];
    },
  };
}
