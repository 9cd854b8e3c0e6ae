import { isDeepStrictEqual } from 'node:util';
import { invalidInput, invalidOperation } from '@herald/model';
import type { ActionHandler, ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import type { Product, ProductData, ProductVariant } from './product.js';
import { allVariants } from './product.js';

/** The reference's `staged` of data actions: "If true, only the staged … is updated. If false, both". Default true. */
export function isStaged(action: UpdateAction): boolean {
  if (action.staged === undefined || action.staged === null) return true;
  if (typeof action.staged !== 'boolean') throw invalidInput("'staged' must be a boolean.", { field: 'staged' });
  return action.staged;
}

/** The data an action with `staged` changes: staged only, or staged and current. */
export function dataToChange(product: Product, staged: boolean): ProductData[] {
  return staged ? [product.masterData.staged] : [product.masterData.staged, product.masterData.current];
}

/** ProductCatalogData.hasStagedChanges: whether staged differs from current, after any action. */
export function withStagedChanges(handlers: ActionHandlers<Product>): ActionHandlers<Product> {
  const wrap =
    (handler: ActionHandler<Product>): ActionHandler<Product> =>
    async (product, action, scope) => {
      const messages = await handler(product, action, scope);
      const { masterData } = product;
      masterData.hasStagedChanges = !isDeepStrictEqual(masterData.current, masterData.staged);
      return messages;
    };
  return Object.fromEntries(Object.entries(handlers).map(([name, handler]) => [name, wrap(handler)]));
}

/** The variant an action names by `variantId` or `sku` (the reference's variant selection), in `data`. */
export function variantIn(data: ProductData, action: UpdateAction): ProductVariant {
  const variants = allVariants(data);
  const found =
    typeof action.variantId === 'number'
      ? variants.find(({ id }) => id === action.variantId)
      : typeof action.sku === 'string'
        ? variants.find(({ sku }) => sku === action.sku)
        : undefined;
  if (found !== undefined) return found;
  if (action.variantId === undefined && action.sku === undefined) throw invalidInput("The action needs a 'variantId' or a 'sku'.", { field: 'variantId' });
  throw invalidOperation(
    `The product has no variant with ${action.variantId === undefined ? `sku '${String(action.sku)}'` : `id ${String(action.variantId)}`}.`,
  );
}
