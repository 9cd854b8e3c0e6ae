import { ASSET_CHANGES } from '../shared/asset-actions.js';
import type { AssetHolder } from '../shared/assets.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';

/**
 * The asset update actions of the reference (CategoryAddAssetAction … CategorySetAssetCustomFieldAction),
 * shared with product variants (shared/asset-actions.ts): the Category is the one holder. The
 * reference has no messages for any of them: they make new versions only.
 */
export function assetActions<D extends AssetHolder>(): ActionHandlers<D> {
  const onCategory = Object.entries(ASSET_CHANGES).map(([name, changeOf]): [string, ActionHandler<D>] => [
    name,
    async (category, action, scope) => {
      const change = await changeOf(action, scope);
      await change(category);
    },
  ]);
  return Object.fromEntries(onCategory);
}
