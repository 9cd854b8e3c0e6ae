import { ApiError, invalidInput } from '@herald/model';
import type { Queryable } from '@herald/store';
import { STANDALONE_PRICE_TYPE_ID, type StandalonePrice } from './standalone-price.js';

/** What a price scope is made of (DuplicateStandalonePriceScopeError): sku, currency, country, customer group, channel. */
type Scoped = Pick<StandalonePrice, 'sku' | 'value' | 'country' | 'customerGroup' | 'channel' | 'validFrom' | 'validUntil'> & { id?: string };

/** StandalonePriceDraft.validFrom: "Must be at least 1 ms earlier than `validUntil`." */
export function assertValidityOrder(validFrom: string | undefined, validUntil: string | undefined): void {
  if (validFrom !== undefined && validUntil !== undefined && Date.parse(validFrom) >= Date.parse(validUntil)) {
    throw invalidInput("'validFrom' must be earlier than 'validUntil'.", { field: 'validFrom', invalidValue: validFrom });
  }
}

function sameScope(a: Scoped, b: Scoped): boolean {
  return (
    a.value.currencyCode === b.value.currencyCode && a.country === b.country && a.customerGroup?.id === b.customerGroup?.id && a.channel?.id === b.channel?.id
  );
}

const hasPeriod = (price: Scoped) => price.validFrom !== undefined || price.validUntil !== undefined;

/** Whether two validity periods share an instant; an absent bound is open. */
function overlaps(a: Scoped, b: Scoped): boolean {
  const start = (price: Scoped) => (price.validFrom === undefined ? -Infinity : Date.parse(price.validFrom));
  const end = (price: Scoped) => (price.validUntil === undefined ? Infinity : Date.parse(price.validUntil));
  return start(a) < end(b) && start(b) < end(a);
}

/** The fields both scope errors carry about the price being written and the one it conflicts with. */
function scopeFields(price: Scoped, conflicting: StandalonePrice): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    conflictingStandalonePrice: { typeId: STANDALONE_PRICE_TYPE_ID, id: conflicting.id },
    sku: price.sku,
    currency: price.value.currencyCode,
  };
  for (const field of ['country', 'customerGroup', 'channel', 'validFrom', 'validUntil'] as const) {
    if (price[field] !== undefined) fields[field] = price[field];
  }
  return fields;
}

/**
 * The reference's rule (standalone-prices.raml POST, setValidFrom…): per sku, a scope with the same
 * validity (or none on both) is a 400 DuplicateStandalonePriceScope; overlapping validity periods in
 * the same scope a 400 OverlappingStandalonePriceValidity; "a Price without validity period does not
 * conflict with a Price defined for a time period". A read before the write (no constraint on
 * document fields): two conflicting writes committing at the same moment can both pass, as for
 * customer group names; the platform answers such races with its lock conflict errors instead.
 */
export async function assertScopeFree(db: Queryable, projectKey: string, price: Scoped): Promise<void> {
  const found = await db.query<{ doc: StandalonePrice }>(
    'SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb AND id <> $4',
    [projectKey, STANDALONE_PRICE_TYPE_ID, JSON.stringify({ sku: price.sku }), price.id ?? ''],
  );
  for (const { doc: other } of found.rows) {
    if (!sameScope(price, other) || hasPeriod(price) !== hasPeriod(other)) continue;
    if (price.validFrom === other.validFrom && price.validUntil === other.validUntil) {
      const message = `Duplicate standalone price scope for SKU: ${price.sku}. The combination of SKU, currency, country, customerGroup, channel, validFrom and validUntil must be unique for each standalone price.`;
      throw new ApiError(400, { code: 'DuplicateStandalonePriceScope', message, ...scopeFields(price, other) });
    }
    if (overlaps(price, other)) {
      throw new ApiError(400, {
        code: 'OverlappingStandalonePriceValidity',
        message: 'Two standalone prices have overlapping validity periods.',
        ...scopeFields(price, other),
        ...(other.validFrom === undefined ? {} : { conflictingValidFrom: other.validFrom }),
        ...(other.validUntil === undefined ? {} : { conflictingValidUntil: other.validUntil }),
      });
    }
  }
}
