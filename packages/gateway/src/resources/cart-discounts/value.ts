import { invalidInput, requiredField, type BaseResource, type Reference } from '@herald/model';
import { absoluteMoney, fixedMoney, permyriadField } from '../discounts/money-values.js';
import { allVariants, PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { APPLICATION_MODES, type CartDiscountValue, type DiscountApplicationMode } from './cart-discount.js';

type Draft = Record<string, unknown>;

export function enumField<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${allowed.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

function applicationMode(draft: Draft, field: string): { applicationMode?: DiscountApplicationMode } {
  if (draft.applicationMode === undefined || draft.applicationMode === null) return {};
  return { applicationMode: enumField(draft.applicationMode, `${field}.applicationMode`, APPLICATION_MODES) };
}

/** CartDiscountValueGiftLineItem: the channel must exist and have the role the reference names. */
async function giftChannel(value: unknown, field: string, role: string, load: Load): Promise<Reference<'channel'> | undefined> {
  if (value === undefined || value === null) return undefined;
  const channel = await loadReferenced<BaseResource & { roles?: string[] }>(load, 'channel', identifierLocator(value, field, 'channel'));
  if (!(channel.roles ?? []).includes(role)) throw invalidInput(`The channel in '${field}' must have the role ${role}.`, { field });
  return { typeId: 'channel', id: channel.id };
}

async function giftLineItem(draft: Draft, field: string, load: Load): Promise<CartDiscountValue> {
  if (draft.product === undefined || draft.product === null) throw requiredField(`${field}.product`);
  if (draft.variantId === undefined || draft.variantId === null) throw requiredField(`${field}.variantId`);
  const product = await loadReferenced<Product>(load, PRODUCT_TYPE_ID, identifierLocator(draft.product, `${field}.product`, PRODUCT_TYPE_ID));
  // "A Gift Line Item can be present on a Cart even if the referenced Product is unpublished": staged variants count.
  if (!allVariants(product.masterData.staged).some((variant) => variant.id === draft.variantId)) {
    throw invalidInput(`The product '${product.id}' has no variant ${JSON.stringify(draft.variantId)}.`, {
      field: `${field}.variantId`,
      invalidValue: draft.variantId,
    });
  }
  const value: CartDiscountValue = { type: 'giftLineItem', product: { typeId: 'product', id: product.id }, variantId: draft.variantId as number };
  const supplyChannel = await giftChannel(draft.supplyChannel, `${field}.supplyChannel`, 'InventorySupply', load);
  if (supplyChannel !== undefined) value.supplyChannel = supplyChannel;
  const distributionChannel = await giftChannel(draft.distributionChannel, `${field}.distributionChannel`, 'ProductDistribution', load);
  if (distributionChannel !== undefined) value.distributionChannel = distributionChannel;
  return value;
}

/** A CartDiscountValueDraft: relative, absolute, fixed or giftLineItem (by `type`). */
export async function cartDiscountValue(value: unknown, load: Load, field = 'value'): Promise<CartDiscountValue> {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput(`'${field}' must be a CartDiscountValueDraft object.`, { field });
  const draft = value as Draft;
  switch (draft.type) {
    case 'relative':
      return { type: 'relative', permyriad: permyriadField(draft.permyriad, `${field}.permyriad`), ...applicationMode(draft, field) };
    case 'absolute':
      return { type: 'absolute', money: absoluteMoney(draft.money, `${field}.money`), ...applicationMode(draft, field) };
    case 'fixed':
      return { type: 'fixed', money: fixedMoney(draft.money, `${field}.money`), ...applicationMode(draft, field) };
    case 'giftLineItem':
      return giftLineItem(draft, field, load);
    default:
      throw invalidInput(`'${field}.type' must be relative, absolute, fixed or giftLineItem.`, { field: `${field}.type`, invalidValue: draft.type });
  }
}
