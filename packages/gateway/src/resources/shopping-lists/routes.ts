import type { Clock } from '@herald/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { associateShoppingLists } from '../as-associate/shopping-lists.js';
import { registerInBusinessUnitRoutes } from '../as-associate/in-business-unit.js';
import { buyerOf, type Buyer } from '../shared/buyer.js';
import type { ResourceDeps } from '../shared/context.js';
import type { DocumentScope } from '../shared/document-scope.js';
import { registerScopedRoutes } from '../shared/scoped-routes.js';
import { registerVersionedRoutes, type ResourceDefinition } from '../shared/versioned-routes.js';
import { myShoppingListActions, shoppingListActions } from './actions.js';
import { shoppingListFromDraft, type ShoppingListDeps } from './draft.js';
import { installLineItemExpansion } from './expansion.js';
import { scheduleShoppingListCleanup } from './retention.js';
import { MY_SHOPPING_LIST_SCOPES, SHOPPING_LIST_SCOPES } from './scopes.js';
import { SHOPPING_LIST_TYPE_ID, type ShoppingList } from './shopping-list.js';

export { MY_SHOPPING_LIST_SCOPES, SHOPPING_LIST_SCOPES } from './scopes.js';

/** `/{projectKey}/shopping-lists`: every list of the project, for API clients. */
export function shoppingListDefinition(deps: ShoppingListDeps): ResourceDefinition<ShoppingList> {
  return {
    typeId: SHOPPING_LIST_TYPE_ID,
    path: 'shopping-lists',
    scopes: SHOPPING_LIST_SCOPES,
    fromDraft: (body, ctx) => shoppingListFromDraft(body, ctx, deps),
    actions: shoppingListActions(deps),
    // The reference's deletes take `dataErasure` (lists name customers and anonymous sessions).
    personalData: true,
  };
}

function storeKeyOf(request: FastifyRequest): string {
  return (request.params as { storeKey: string }).storeKey;
}

/** A `/me` list: "a `customer` with `id` … that matches the customer:{id} scope" or the `anonymousId`. */
function buyerConditions(buyer: Buyer): DocumentScope['conditions'] {
  return 'customerId' in buyer ? [{ path: ['customer', 'id'], value: buyer.customerId }] : [{ path: ['anonymousId'], value: buyer.anonymousId }];
}

const storeCondition = (storeKey: string) => ({ path: ['store', 'key'], value: storeKey });

function registerAll(app: FastifyInstance, deps: ResourceDeps, listDeps: ShoppingListDeps): void {
  registerVersionedRoutes(app, shoppingListDefinition(listDeps), deps);
  const common = { typeId: SHOPPING_LIST_TYPE_ID, remove: { personalData: true } } as const;
  const mine = { ...common, scopes: MY_SHOPPING_LIST_SCOPES, me: 'customer-or-anonymous', actions: myShoppingListActions(listDeps) } as const;
  registerScopedRoutes<ShoppingList>(
    app,
    {
      ...mine,
      path: 'me/shopping-lists',
      scopeOf: (request) => ({ conditions: buyerConditions(buyerOf(request.auth)) }),
      create: (body, ctx) => shoppingListFromDraft(body, ctx, listDeps, { buyer: buyerOf(ctx.auth) }),
    },
    deps,
  );
  registerScopedRoutes<ShoppingList>(
    app,
    {
      ...common,
      path: 'in-store/key=:storeKey/shopping-lists',
      scopes: SHOPPING_LIST_SCOPES,
      actions: shoppingListActions(listDeps),
      scopeOf: (request) => ({ conditions: [storeCondition(storeKeyOf(request))] }),
      create: (body, ctx, request) => shoppingListFromDraft(body, ctx, listDeps, { storeKey: storeKeyOf(request) }),
    },
    deps,
  );
  registerScopedRoutes<ShoppingList>(
    app,
    {
      ...mine,
      path: 'in-store/key=:storeKey/me/shopping-lists',
      scopeOf: (request) => ({ conditions: [storeCondition(storeKeyOf(request)), ...buyerConditions(buyerOf(request.auth))] }),
      create: (body, ctx, request) => shoppingListFromDraft(body, ctx, listDeps, { buyer: buyerOf(ctx.auth), storeKey: storeKeyOf(request) }),
    },
    deps,
  );
  registerInBusinessUnitRoutes(app, associateShoppingLists(listDeps), deps);
}

/**
 * Shopping lists under their five paths (the template's eight operations on `/shopping-lists`, the
 * token's buyer's lists on `/me/shopping-lists`, a store's lists and both restrictions, a business
 * unit's lists as an associate), with the line items following their products and the
 * `variant`/`productSlug` expansion on all of them, and the retention sweep.
 */
export function registerShoppingListRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const listDeps: ShoppingListDeps = { db: deps.documents.db, clock };
  // An encapsulated scope: the expansion hook applies to these routes only.
  void app.register(async (scope) => {
    installLineItemExpansion(scope, deps.documents);
    registerAll(scope, deps, listDeps);
  });
  scheduleShoppingListCleanup(app, deps.documents, clock);
}
