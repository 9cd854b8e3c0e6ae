import { ASSET_CHANGES } from '../shared/asset-actions.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Product } from './product.js';
import { dataToChange, isStaged, variantIn } from './staging.js';

/**
 * The asset actions of the reference (types/product/updates/ProductAddAssetAction …
 * ProductSetAssetCustomFieldAction), those of Categories (shared/asset-actions.ts) on the variant of
 * `variantId` or `sku`: in the staged data or, with `staged: false`, in both, where the change read
 * once from the action (an added asset keeps one id) applies to each. The reference has no
 * messages for them.
 */
export const assetActions: ActionHandlers<Product> = Object.fromEntries(
  Object.entries(ASSET_CHANGES).map(([name, changeOf]): [string, ActionHandler<Product>] => [
    name,
    async (product, action, scope) => {
      const dataVersions = dataToChange(product, isStaged(action));
      const change = await changeOf(action, scope);
      for (const data of dataVersions) await change(variantIn(data, action));
    },
  ]),
);
