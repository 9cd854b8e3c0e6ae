import { invalidInput, requiredField, type Clock } from '@herald/model';
import type { Queryable, ServerFields } from '@herald/store';
import type { Buyer } from '../shared/buyer.js';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft } from '../shared/custom-fields.js';
import { identifierLocator, keyReference, loadReferenced } from '../shared/references.js';
import { asDraft, localizedString, optionalKey, optionalString, type Draft } from '../shared/validation.js';
import { assertBusinessUnitRules } from './business-unit.js';
import { assertSlugFree, deleteDays, slugOf } from './fields.js';
import { addLineItem, addTextLineItem, lineItemFromDraft, textLineItemFromDraft, type ItemContext } from './line-items.js';
import { SHOPPING_LIST_TYPE_ID, type ShoppingList } from './shopping-list.js';

export type ShoppingListFields = Omit<ShoppingList, ServerFields>;

/** What drafts and actions read besides the request: the database (SKU and slug checks) and the clock (`addedAt`). */
export interface ShoppingListDeps {
  db: Queryable;
  clock: Clock;
}

/** Where a draft arrives: `/me/…` acts for the token's buyer, `/in-store/key=…/…` sets the store. */
export interface DraftScope {
  buyer?: Buyer;
  storeKey?: string;
}

/** MyShoppingListDraft: "The `key` and `slug` fields can not be set"; the buyer comes from the token. */
const NOT_IN_MY_DRAFT = ['key', 'slug', 'customer', 'anonymousId', 'businessUnit'] as const;

export function itemContext(ctx: RequestContext, deps: ShoppingListDeps): ItemContext {
  return { load: ctx.load, db: deps.db, projectKey: ctx.projectKey, now: deps.clock.now().toISOString() };
}

function draftArray(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 500) throw invalidInput(`'${field}' must be an array of at most 500 entries.`, { field });
  return value;
}

async function withItems(list: ShoppingListFields, draft: Draft, context: ItemContext): Promise<void> {
  const asList = list as ShoppingList;
  for (const item of draftArray(draft.lineItems, 'lineItems')) addLineItem(asList, await lineItemFromDraft(item, context));
  for (const item of draftArray(draft.textLineItems, 'textLineItems')) addTextLineItem(asList, await textLineItemFromDraft(item, context));
}

/** The buyer fields: the token's buyer on `/me`, else the draft's `customer` and `anonymousId`. */
async function withBuyer(list: ShoppingListFields, draft: Draft, ctx: RequestContext, buyer: Buyer | undefined): Promise<void> {
  if (buyer !== undefined) {
    if ('customerId' in buyer) list.customer = { typeId: 'customer', id: buyer.customerId };
    else list.anonymousId = buyer.anonymousId;
    return;
  }
  if (draft.customer !== undefined && draft.customer !== null) {
    const customer = await loadReferenced(ctx.load, 'customer', identifierLocator(draft.customer, 'customer', 'customer'));
    list.customer = { typeId: 'customer', id: customer.id };
  }
  const anonymousId = optionalString(draft.anonymousId, 'anonymousId', 256);
  if (anonymousId !== undefined) list.anonymousId = anonymousId;
}

async function withIdentifiers(list: ShoppingListFields, draft: Draft, ctx: RequestContext, deps: ShoppingListDeps): Promise<void> {
  const key = optionalKey(draft.key);
  if (key !== undefined) list.key = key;
  if (draft.slug !== undefined && draft.slug !== null) {
    list.slug = slugOf(draft.slug);
    await assertSlugFree(deps.db, ctx.projectKey, list.slug);
  }
}

/**
 * The reference's ShoppingListDraft (and MyShoppingListDraft on `/me`): `name` is required; line
 * items are resolved against products; `store` is the path's on in-store routes.
 */
export async function shoppingListFromDraft(body: unknown, ctx: RequestContext, deps: ShoppingListDeps, scope: DraftScope = {}): Promise<ShoppingListFields> {
  const draft = asDraft(body, scope.buyer === undefined ? 'ShoppingListDraft' : 'MyShoppingListDraft');
  if (scope.buyer !== undefined) {
    const refused = NOT_IN_MY_DRAFT.find((field) => draft[field] !== undefined && draft[field] !== null);
    if (refused !== undefined) throw invalidInput(`'${refused}' cannot be set on a shopping list of one's own (MyShoppingListDraft).`, { field: refused });
  }
  if (draft.name === undefined || draft.name === null) throw requiredField('name');
  const list: ShoppingListFields = {
    name: localizedString(draft.name, 'name'),
    lineItems: [],
    textLineItems: [],
    deleteDaysAfterLastModification: deleteDays(draft.deleteDaysAfterLastModification, ctx.project),
  };
  if (draft.description !== undefined && draft.description !== null) list.description = localizedString(draft.description, 'description');
  await withIdentifiers(list, draft, ctx, deps);
  await withBuyer(list, draft, ctx, scope.buyer);
  const store = scope.storeKey === undefined ? draft.store : { key: scope.storeKey };
  if (store !== undefined && store !== null) list.store = await keyReference(ctx.load, 'store', store, 'store');
  if (draft.businessUnit !== undefined && draft.businessUnit !== null) {
    list.businessUnit = await keyReference(ctx.load, 'business-unit', draft.businessUnit, 'businessUnit');
  }
  await assertBusinessUnitRules({ get: (_projectKey, typeId, locator) => ctx.load(typeId, locator) }, ctx.projectKey, list, 'businessUnit');
  const custom = await customFromDraft(draft.custom, SHOPPING_LIST_TYPE_ID, ctx);
  if (custom !== undefined) list.custom = custom;
  await withItems(list, draft, itemContext(ctx, deps));
  return list;
}
