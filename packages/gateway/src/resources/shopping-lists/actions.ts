import { invalidInput, invalidOperation } from '@herald/model';
import { readerLookup } from '../business-units/associates.js';
import { customFieldActions } from '../shared/custom-fields.js';
import { identifierLocator, keyReference, loadReferenced } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { localizedString, optionalKey, optionalString } from '../shared/validation.js';
import { assertBusinessUnitRules, assertCustomerIsAssociate, assertUnitHasStore } from './business-unit.js';
import type { ShoppingListDeps } from './draft.js';
import { assertSlugFree, deleteDays, slugOf } from './fields.js';
import { itemActions } from './item-actions.js';
import { SHOPPING_LIST_TYPE_ID, type ShoppingList } from './shopping-list.js';

const absent = (value: unknown): value is undefined | null => value === undefined || value === null;

/**
 * The actions `/me/shopping-lists` accepts (the reference's MyShoppingListUpdateAction): every
 * action but those on key, slug, owner, store and business unit.
 */
export function myShoppingListActions(deps: ShoppingListDeps): ActionHandlers<ShoppingList> {
  return {
    ...itemActions(deps),
    changeName(shoppingList, action) {
      if (absent(action.name)) throw invalidInput("'name' is required.", { field: 'name' });
      shoppingList.name = localizedString(action.name, 'name');
    },
    setDescription(shoppingList, action) {
      if (absent(action.description)) delete shoppingList.description;
      else shoppingList.description = localizedString(action.description, 'description');
    },
    /** "If omitted, the default value … configured in Project settings is assigned." */
    setDeleteDaysAfterLastModification(shoppingList, action, { ctx }) {
      shoppingList.deleteDaysAfterLastModification = deleteDays(action.deleteDaysAfterLastModification, ctx.project);
    },
    // The reference has no ShoppingList custom field messages: new versions only.
    ...customFieldActions<ShoppingList>(SHOPPING_LIST_TYPE_ID, { messages: false }),
  };
}

/** Every update action of the reference's ShoppingListUpdateAction (types/shopping-list/updates). */
export function shoppingListActions(deps: ShoppingListDeps): ActionHandlers<ShoppingList> {
  return {
    ...myShoppingListActions(deps),
    setKey(shoppingList, action) {
      const key = optionalKey(action.key);
      if (key === undefined) delete shoppingList.key;
      else shoppingList.key = key;
    },
    async setSlug(shoppingList, action, { ctx }) {
      if (absent(action.slug)) {
        delete shoppingList.slug;
        return;
      }
      shoppingList.slug = slugOf(action.slug);
      await assertSlugFree(deps.db, ctx.projectKey, shoppingList.slug, shoppingList.id);
    },
    async setCustomer(shoppingList, action, { ctx, reader }) {
      if (absent(action.customer)) {
        delete shoppingList.customer;
        return;
      }
      const customer = await loadReferenced(ctx.load, 'customer', identifierLocator(action.customer, 'customer', 'customer'));
      shoppingList.customer = { typeId: 'customer', id: customer.id };
      await assertCustomerIsAssociate(readerLookup(reader), ctx.projectKey, shoppingList);
    },
    /** "If the Shopping List is already associated with a Customer, an InvalidOperation error is returned." */
    setAnonymousId(shoppingList, action) {
      if (shoppingList.customer !== undefined) throw invalidOperation('The shopping list belongs to a customer: it cannot get an anonymous id.');
      const anonymousId = optionalString(action.anonymousId, 'anonymousId', 256);
      if (anonymousId === undefined) delete shoppingList.anonymousId;
      else shoppingList.anonymousId = anonymousId;
    },
    async setStore(shoppingList, action, { ctx, reader }) {
      if (absent(action.store)) delete shoppingList.store;
      else shoppingList.store = await keyReference(ctx.load, 'store', action.store, 'store');
      await assertUnitHasStore(readerLookup(reader), ctx.projectKey, shoppingList, 'store');
    },
    /** "The Shopping List must have an existing Business Unit assigned already"; the unit must have access to the list's Store. */
    async setBusinessUnit(shoppingList, action, { ctx, reader }) {
      if (shoppingList.businessUnit === undefined) throw invalidOperation('The shopping list has no business unit to change.');
      if (absent(action.businessUnit)) throw invalidInput("'businessUnit' is required.", { field: 'businessUnit' });
      shoppingList.businessUnit = await keyReference(ctx.load, 'business-unit', action.businessUnit, 'businessUnit');
      await assertBusinessUnitRules(readerLookup(reader), ctx.projectKey, shoppingList, 'businessUnit');
    },
  };
}
