import { invalidOperation, type BaseResource, type CustomFields, type MessagePayload } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { holderOf } from './price-actions.js';
import type { Price, Product } from './product.js';
import { dataToChange, isStaged } from './staging.js';

/** An embedded Price as the shared custom-field actions see them: they read and write only `custom`. */
type CustomizablePrice = BaseResource & { custom?: CustomFields };

/** Prices are customised by Types for `product-price` (the reference's ResourceTypeId). */
const priceCustomFields = customFieldActions<CustomizablePrice>('product-price');

/**
 * The shared handlers name their messages after the resource type (`ProductPriceCustomTypeSet` …);
 * the reference's ProductPriceCustomFieldsSet / …CustomFieldsRemoved carry `customField` instead,
 * and ProductPriceCustomFieldChanged has no `oldValue`. Every one names the price and variant.
 */
function priceMessage(shared: MessagePayload, where: { priceId: string; variantId: number; staged: boolean }): MessagePayload {
  const { type, customFields, oldTypeId, name, value } = shared;
  switch (type) {
    case 'ProductPriceCustomTypeSet':
      return { type: 'ProductPriceCustomFieldsSet', ...where, customField: customFields, ...(oldTypeId === undefined ? {} : { oldTypeId }) };
    case 'ProductPriceCustomTypeRemoved':
      return { type: 'ProductPriceCustomFieldsRemoved', ...where };
    case 'ProductPriceCustomFieldRemoved':
      return { type, ...where, name };
    default:
      return { type, ...where, name, value };
  }
}

/** ProductSetProductPriceCustomFieldAction: "Removing a field that does not exist returns an InvalidOperation error". */
function assertRemovable(price: Price, action: UpdateAction): void {
  if (action.value !== undefined && action.value !== null) return;
  if (price.custom === undefined || typeof action.name !== 'string' || Object.hasOwn(price.custom.fields, action.name)) return;
  throw invalidOperation(`The price '${price.id}' has no custom field '${action.name}' to remove.`);
}

/**
 * The shared setCustomType / setCustomField run on the embedded price `priceId` of the staged data
 * or, with `staged: false`, of both; the messages are those of the first price the action changed (the staged one, unless it was already so).
 */
function onPriceCustomFields(name: 'setCustomType' | 'setCustomField'): ActionHandler<Product> {
  const handler = priceCustomFields[name] as ActionHandler<CustomizablePrice>;
  return async (product, action, scope) => {
    const staged = isStaged(action);
    const messages: MessagePayload[] = [];
    for (const data of dataToChange(product, staged)) {
      const { variant, index } = holderOf(data, action.priceId);
      const price = variant.prices[index] as Price;
      if (name === 'setCustomField') assertRemovable(price, action);
      const produced = (await handler(price as unknown as CustomizablePrice, { ...action, action: name }, scope)) ?? [];
      if (messages.length === 0) messages.push(...produced.map((message) => priceMessage(message, { priceId: price.id, variantId: variant.id, staged })));
    }
    return messages;
  };
}

/** ProductSetProductPriceCustomTypeAction and ProductSetProductPriceCustomFieldAction. */
export const priceCustomActions: ActionHandlers<Product> = {
  setProductPriceCustomType: onPriceCustomFields('setCustomType'),
  setProductPriceCustomField: onPriceCustomFields('setCustomField'),
};
