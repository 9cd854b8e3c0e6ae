import { requirePermission } from '../associates/require-permission.js';
import { shoppingListActions } from '../shopping-lists/actions.js';
import { shoppingListFromDraft, type ShoppingListDeps } from '../shopping-lists/draft.js';
import { SHOPPING_LIST_SCOPES } from '../shopping-lists/scopes.js';
import { SHOPPING_LIST_TYPE_ID, type ShoppingList } from '../shopping-lists/shopping-list.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { asDraft } from '../shared/validation.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/** The draft's customer (by id or key), else the acting associate. */
async function customerIdOf(value: unknown, load: Load, associateId: string): Promise<string> {
  if (value === undefined || value === null) return associateId;
  return (await loadReferenced(load, 'customer', identifierLocator(value, 'customer', 'customer'))).id;
}

/**
 * `…/in-business-unit/key={businessUnitKey}/shopping-lists` (reference: as-associate.raml,
 * "ShoppingLists in BusinessUnit as Associate"): the API client's shopping list scopes, every
 * ShoppingListUpdateAction, and per list the permissions {View,Update,Delete}{My,Others}ShoppingLists
 * by its `customer`. Registered by shopping-lists/routes.ts, so that its answers get the line
 * items' product data and expansion like the other shopping list routes.
 */
export function associateShoppingLists(deps: ShoppingListDeps): InBusinessUnitResource<ShoppingList> {
  return {
    typeId: SHOPPING_LIST_TYPE_ID,
    path: 'shopping-lists',
    scopes: SHOPPING_LIST_SCOPES,
    customerPath: ['customer', 'id'],
    permissions: {
      view: { my: 'ViewMyShoppingLists', others: 'ViewOthersShoppingLists' },
      update: { my: 'UpdateMyShoppingLists', others: 'UpdateOthersShoppingLists' },
      delete: { my: 'DeleteMyShoppingLists', others: 'DeleteOthersShoppingLists' },
    },
    /**
     * "Creates a ShoppingList in the BusinessUnit referenced by `businessUnitKey`. As such, the
     * `businessUnit` field on ShoppingListDraft is ignored"; a list of the draft's `customer`, the
     * associate's own when it names none (CreateMyShoppingLists or CreateOthersShoppingLists).
     */
    async create(body, ctx, scope, resourceDeps) {
      const draft = asDraft(body, 'ShoppingListDraft');
      const customerId = await customerIdOf(draft.customer, ctx.load, scope.associateId);
      const permission = { my: 'CreateMyShoppingLists', others: 'CreateOthersShoppingLists' } as const;
      await requirePermission({ documents: resourceDeps.documents }, scope, permission, customerId, { action: 'create shopping lists' });
      const customer = { typeId: 'customer', id: customerId };
      return shoppingListFromDraft({ ...draft, customer, businessUnit: { typeId: 'business-unit', key: scope.businessUnitKey } }, ctx, deps);
    },
    actions: shoppingListActions(deps),
    // The reference's deletes take `dataErasure` (lists name customers).
    remove: { personalData: true },
  };
}
