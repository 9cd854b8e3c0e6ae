import type { MessagePayload } from '@herald/model';
import type { DocumentStore, Queryable, ServerFields, WriteContext } from '@herald/store';
import { withWriteFollowers } from '../shared/write-followers.js';
import { platformDiscountedPrices, platformDiscounts, platformOwnsDiscounted, setPlatformDiscounted, type PlatformReads } from './platform-discount.js';
import type { StandalonePrice } from './standalone-price.js';

type PriceFields = Omit<StandalonePrice, ServerFields>;

/** The platform's DiscountSet for a price's fields, applied in place (none when the price keeps what it has). */
async function followDiscounts(price: PriceFields, reads: PlatformReads): Promise<MessagePayload[]> {
  if (!(await platformOwnsDiscounted(price, reads.load))) return [];
  const [discounted] = await platformDiscountedPrices([price], await platformDiscounts(reads), reads);
  const message = setPlatformDiscounted(price, discounted);
  return message === undefined ? [] : [message];
}

/**
 * What matching depends on (the predicate's Price field identifiers and the SKU's variant), and
 * what an action may change of it: value (applyStagedChanges too), scope, validity, active, and
 * `discounted` itself (removing an external discount lets a platform one in).
 */
function matchingBasis(price: StandalonePrice): string {
  const { sku, value, country, customerGroup, channel, validFrom, validUntil, active, discounted } = price;
  return JSON.stringify([sku, value, country, customerGroup?.id, channel?.id, validFrom, validUntil, active, discounted]);
}

/** Reads of the write's transaction `tx`. */
export function readsWithin(ctx: WriteContext, documents: DocumentStore, tx: Queryable): PlatformReads {
  const joined = documents.within(tx);
  return { tx, projectKey: ctx.projectKey, load: (typeId, locator) => joined.get(ctx.projectKey, typeId, locator) };
}

/**
 * The document store the standalone price routes write through: a create and an update compute
 * the price's platform `discounted` (StandalonePrice.discounted "Set if a matching ProductDiscount
 * exists") in the write's transaction, with StandalonePriceDiscountSet when it changes. Updates
 * take the row lock instead of the template's optimistic write, so the discounts read are the
 * committed ones a concurrent discount write waits for.
 */
export function standalonePriceDocuments(documents: DocumentStore): DocumentStore {
  return withWriteFollowers<StandalonePrice>(documents, {
    lockedUpdates: true,
    async beforeCreate({ ctx, tx }, fields) {
      const price = { ...fields };
      return { fields: price, messages: await followDiscounts(price, readsWithin(ctx, documents, tx)) };
    },
    followApply: (ctx, apply) => async (current, reader) => {
      const before = matchingBasis(current);
      const result = await apply(current, reader);
      if (matchingBasis(result.doc) === before) return result;
      const discountSet = await followDiscounts(result.doc, readsWithin(ctx, documents, reader.tx));
      return { ...result, messages: [...(result.messages ?? []), ...discountSet] };
    },
  });
}
