import { invalidOperation, type MessagePayload } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import { updateReads } from '../carts/catalogue.js';
import { channelReference } from '../channels/reference.js';
import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import { optionalDateTime } from '../inventory/fields.js';
import { countryCode } from '../shared/address.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalKey, requiredString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { booleanField, discountedPrice, stagedPrice } from './fields.js';
import { assertScopeFree, assertValidityOrder } from './price-scope.js';
import { STANDALONE_PRICE_TYPE_ID, type StandalonePrice } from './standalone-price.js';
import { tierActions, tierList } from './tiers.js';
import { typedMoney, typedMoneyIn } from '../shared/typed-money.js';
import { validityActions } from './validity.js';

type PriceFields = Omit<StandalonePrice, ServerFields>;

/** The reference names no length for a SKU; this bound only keeps documents reasonable. */
const MAX_SKU_LENGTH = 256;

/** The scope and validity fields of a StandalonePriceDraft (references resolved and checked). */
async function scopeFromDraft(draft: Record<string, unknown>, ctx: RequestContext): Promise<Partial<PriceFields>> {
  const absent = (value: unknown) => value === undefined || value === null;
  return {
    country: absent(draft.country) ? undefined : countryCode(draft.country, 'country'),
    customerGroup: await optionalCustomerGroupReference(ctx.load, draft.customerGroup, 'customerGroup'),
    // StandalonePriceDraft.channel: without ProductDistribution, 400 MissingRoleOnChannel.
    channel: absent(draft.channel) ? undefined : await channelReference(ctx.load, draft.channel, 'channel', 'ProductDistribution'),
    validFrom: optionalDateTime(draft.validFrom, 'validFrom'),
    validUntil: optionalDateTime(draft.validUntil, 'validUntil'),
  };
}

async function priceFromDraft(body: unknown, ctx: RequestContext): Promise<PriceFields> {
  const draft = asDraft(body, 'StandalonePriceDraft');
  const sku = requiredString(draft, 'sku', MAX_SKU_LENGTH);
  const value = typedMoney(draft.value, 'value');
  const currency = value.currencyCode;
  const active = draft.active === undefined || draft.active === null ? true : booleanField(draft.active, 'active');
  if (draft.recurrencePolicy !== undefined && draft.recurrencePolicy !== null) {
    // A beta reference Herald has no resource for: refused as a reference to nothing.
    await loadReferenced(ctx.load, 'recurrence-policy', identifierLocator(draft.recurrencePolicy, 'recurrencePolicy', 'recurrence-policy'));
  }
  const fields: PriceFields = { sku, value, active };
  const optional: Partial<PriceFields> = {
    key: optionalKey(draft.key),
    ...(await scopeFromDraft(draft, ctx)),
    tiers: draft.tiers === undefined || draft.tiers === null ? undefined : tierList(draft.tiers, 'tiers', currency),
    custom: await customFromDraft(draft.custom, STANDALONE_PRICE_TYPE_ID, ctx),
    staged: stagedPrice(draft.staged, currency),
  };
  for (const [field, given] of Object.entries(optional)) if (given !== undefined) Object.assign(fields, { [field]: given });
  if (fields.tiers?.length === 0) delete fields.tiers;
  // After the scope: the discount's predicate reads the price's country, customer group and channel.
  const discounted = await discountedPrice(draft.discounted, 'discounted', fields, ctx);
  if (discounted !== undefined) fields.discounted = discounted;
  assertValidityOrder(fields.validFrom, fields.validUntil);
  return fields;
}

function valueActions(): ActionHandlers<StandalonePrice> {
  return {
    /** StandalonePriceChangeValueAction: `staged: true` changes (or creates) the staged value only. */
    changeValue(price, action): MessagePayload[] {
      const staged = action.staged === undefined || action.staged === null ? false : booleanField(action.staged, 'staged');
      const value = typedMoneyIn(action.value, 'value', price.value.currencyCode);
      const oldValue = staged ? price.staged?.value : price.value;
      if (isDeepStrictEqual(value, oldValue)) return [];
      if (staged) price.staged = { ...price.staged, value };
      else price.value = value;
      return [{ type: 'StandalonePriceValueChanged', value, staged, ...(oldValue === undefined ? {} : { oldValue }) }];
    },
    async setDiscountedPrice(price, action, { ctx, reader }): Promise<MessagePayload[]> {
      // The update's transaction when it holds one, else the database (an optimistic update has none).
      const discounted = await discountedPrice(action.discounted, 'discounted', price, updateReads(ctx, reader));
      if (isDeepStrictEqual(discounted, price.discounted)) return [];
      if (discounted === undefined) delete price.discounted;
      else price.discounted = discounted;
      return [{ type: 'StandalonePriceExternalDiscountSet', ...(discounted === undefined ? {} : { discounted }) }];
    },
    changeActive(price, action): MessagePayload[] {
      const active = booleanField(action.active, 'active');
      if (active === price.active) return [];
      const oldActive = price.active;
      price.active = active;
      return [{ type: 'StandalonePriceActiveChanged', active, oldActive }];
    },
  };
}

function stagedActions(): ActionHandlers<StandalonePrice> {
  return {
    /** StandalonePriceApplyStagedChangesAction: without staged changes, a 400. */
    applyStagedChanges(price): MessagePayload[] {
      const stagedChanges = price.staged;
      if (stagedChanges === undefined) throw invalidOperation('The standalone price has no staged changes to apply.');
      price.value = stagedChanges.value;
      if (stagedChanges.discounted !== undefined) price.discounted = stagedChanges.discounted;
      delete price.staged;
      return [{ type: 'StandalonePriceStagedChangesApplied', stagedChanges }];
    },
    removeStagedChanges(price): MessagePayload[] {
      const stagedChanges = price.staged;
      if (stagedChanges === undefined) return [];
      delete price.staged;
      return [{ type: 'StandalonePriceStagedChangesRemoved', stagedChanges }];
    },
  };
}

/**
 * `/{projectKey}/standalone-prices` (reference: resources/standalone-prices.raml,
 * types/standalone-price). Its messages are types/message/StandalonePrice*; the reference has no
 * custom field messages for standalone prices. The sku is not checked against products (the draft:
 * "It is not validated to exist in product variants").
 */
export function standalonePriceDefinition(documents: DocumentStore): ResourceDefinition<StandalonePrice> {
  return {
    typeId: STANDALONE_PRICE_TYPE_ID,
    path: 'standalone-prices',
    scopes: { view: ['view_standalone_prices'], manage: ['manage_standalone_prices'] },

    async fromDraft(body, ctx) {
      const fields = await priceFromDraft(body, ctx);
      await assertScopeFree(documents.db, ctx.projectKey, fields);
      return fields;
    },

    createdMessages: (standalonePrice) => [{ type: 'StandalonePriceCreated', standalonePrice }],
    deletedMessages: (price) => [{ type: 'StandalonePriceDeleted', sku: price.sku }],

    actions: {
      ...valueActions(),
      ...stagedActions(),
      ...tierActions,
      ...validityActions(),
      setKey(price, action): MessagePayload[] {
        const key = optionalKey(action.key);
        const oldKey = price.key;
        if (key === oldKey) return [];
        if (key === undefined) delete price.key;
        else price.key = key;
        return [{ type: 'StandalonePriceKeySet', ...(key === undefined ? {} : { key }), ...(oldKey === undefined ? {} : { oldKey }) }];
      },
      ...customFieldActions<StandalonePrice>(STANDALONE_PRICE_TYPE_ID, { messages: false }),
    },
  };
}
