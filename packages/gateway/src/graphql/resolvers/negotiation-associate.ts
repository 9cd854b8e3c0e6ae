import { invalidOperation, resourceNotFound, systemClock, type BaseResource } from '@herald/model';
import type { Locator } from '@herald/store';
import { associateOrders } from '../../resources/as-associate/orders.js';
import { associateQuoteRequests } from '../../resources/as-associate/quote-requests.js';
import { associateQuotes } from '../../resources/as-associate/quotes.js';
import { customerAt, type InBusinessUnitResource } from '../../resources/as-associate/in-business-unit.js';
import type { OwnedPermission } from '../../resources/associates/permissions.js';
import { requirePermission, type AssociateScope } from '../../resources/associates/require-permission.js';
import { createOrderActions } from '../../resources/orders/actions.js';
import { createOrderFromCart } from '../../resources/orders/from-cart.js';
import { createOrderFromQuote } from '../../resources/orders/from-quote.js';
import type { Order } from '../../resources/orders/order.js';
import { ORDER_SCOPES } from '../../resources/orders/routes.js';
import { quoteRequestCreated } from '../../resources/quote-requests/definition.js';
import { quoteRequestFromDraft } from '../../resources/quote-requests/draft.js';
import type { QuoteRequest } from '../../resources/quote-requests/quote-request.js';
import type { Quote } from '../../resources/quotes/quote.js';
import type { RequestContext } from '../../resources/shared/context.js';
import { notFoundMessage } from '../../resources/shared/versioned-routes.js';
import type { UpdateAction } from '../../resources/shared/update-actions.js';
import type { GraphQLContext } from '../context.js';
import { restActions, type InputObject } from '../inputs.js';
import { requireAnyScope, updateWith, type UpdateArgs } from './negotiation-writes.js';

/*
 * The official `asAssociate: {associateId, businessUnitKey}` argument: the API client acts for
 * the associate in the unit, with the rules of REST's `/as-associate/{associateId}/in-business-unit/
 * key={businessUnitKey}/…` (resources/as-associate): the associate's permission in the unit, My or
 * Others by the document's customer, checked before anything else; a document of another unit is
 * an InvalidOperation; the associate is the Initiator's `associate`.
 */

export interface AsAssociateArgs {
  asAssociate?: { associateId: string; businessUnitKey: string } | null;
}
type AsAssociate = NonNullable<AsAssociateArgs['asAssociate']>;

function associateScope(context: GraphQLContext, argument: AsAssociate): AssociateScope {
  return { projectKey: context.projectKey, associateId: argument.associateId, businessUnitKey: argument.businessUnitKey };
}

/** The request with the associate as the Initiator's `associate` (as in-business-unit.ts does). */
function actingAs(context: GraphQLContext, scope: AssociateScope): RequestContext {
  const ctx = context.request;
  return { ...ctx, write: { ...ctx.write, initiator: { ...ctx.write.initiator, associate: { typeId: 'customer', id: scope.associateId } } } };
}

/** The reference: "If the {resource} … does not reference the requested BusinessUnit, … an InvalidOperation error". */
function assertInUnit(what: string, businessUnitKey: string | undefined, scope: AssociateScope): void {
  if (businessUnitKey !== scope.businessUnitKey) throw invalidOperation(`The ${what} does not belong to the business unit '${scope.businessUnitKey}'.`);
}

const unitOf = (doc: object): string | undefined => (doc as { businessUnit?: { key?: string } }).businessUnit?.key;

/** An update in the unit: the permission for the document's customer, the unit, then the actions; the document may not leave either. */
async function updateInUnit<D extends BaseResource>(
  context: GraphQLContext,
  resource: InBusinessUnitResource<D> & { permissions: { update: OwnedPermission } },
  target: { locator: Locator; version: number; actions: readonly UpdateAction[] },
  argument: AsAssociate,
): Promise<D> {
  const scope = associateScope(context, argument);
  const documents = context.services.documents;
  const current = await documents.get<D>(context.projectKey, resource.typeId, target.locator);
  if (current === undefined) throw resourceNotFound(notFoundMessage(resource.typeId, target.locator));
  const required = resource.permissions.update;
  await requirePermission({ documents }, scope, required, customerAt(current, resource.customerPath));
  assertInUnit(resource.typeId, unitOf(current), scope);
  const handlers = resource.actions ?? {};
  return updateWith<D>(
    context,
    actingAs(context, scope),
    { typeId: resource.typeId, locator: { id: current.id }, version: target.version },
    handlers,
    target.actions,
    async (doc) => {
      if (unitOf(doc) !== scope.businessUnitKey) throw invalidOperation('The update would move the resource out of the business unit.');
      const owner = customerAt(doc, resource.customerPath);
      if (owner !== customerAt(current, resource.customerPath)) await requirePermission({ documents }, scope, required, owner);
    },
  );
}

/** The buyer's answers (MyQuoteUpdateAction) under the official QuoteUpdateAction names: changeQuoteState is the buyer's change. */
function asBuyerAnswers(actions: readonly UpdateAction[]): UpdateAction[] {
  return actions.map((action) => (action.action === 'changeQuoteState' ? { ...action, action: 'changeMyQuoteState' } : action));
}

/**
 * Orders as associate: REST lets associates read them; the official SDL's updateOrder with
 * asAssociate is the seller's order actions under Update{My,Others}Orders.
 */
const associateOrderUpdates = {
  ...associateOrders,
  permissions: { ...associateOrders.permissions, update: { my: 'UpdateMyOrders', others: 'UpdateOthersOrders' } },
  actions: createOrderActions(systemClock),
} satisfies InBusinessUnitResource<Order>;

const ORDER_CREATE_SCOPES = [...ORDER_SCOPES.manage, 'manage_quotes'] as const;

export const asAssociateMutations = {
  /** REST associateQuoteRequests.create: the cart's customer decides My or Others; the cart must be the unit's. */
  async createQuoteRequest(context: GraphQLContext, draft: InputObject, argument: AsAssociate): Promise<QuoteRequest> {
    const scope = associateScope(context, argument);
    const ctx = actingAs(context, scope);
    const fields = await quoteRequestFromDraft(draft, ctx);
    const permission = { my: 'CreateMyQuoteRequestsFromMyCarts', others: 'CreateQuoteRequestsFromOthersCarts' } as const;
    await requirePermission({ documents: context.services.documents }, scope, permission, fields.customer.id, { action: 'create quote requests' });
    assertInUnit('cart', fields.businessUnit?.key, scope);
    return context.services.documents.create<QuoteRequest>(ctx.write, 'quote-request', fields, (doc) => [quoteRequestCreated(doc)]);
  },
  updateQuoteRequest(context: GraphQLContext, locator: Locator, args: UpdateArgs, argument: AsAssociate): Promise<QuoteRequest> {
    const resource = {
      ...associateQuoteRequests,
      permissions: { ...associateQuoteRequests.permissions, update: associateQuoteRequests.permissions.update ?? associateQuoteRequests.permissions.view },
    };
    return updateInUnit(context, resource, { locator, version: args.version, actions: restActions(args.actions) }, argument);
  },
  updateQuote(context: GraphQLContext, locator: Locator, args: UpdateArgs, argument: AsAssociate): Promise<Quote> {
    const resource = {
      ...associateQuotes,
      permissions: { ...associateQuotes.permissions, update: associateQuotes.permissions.update ?? associateQuotes.permissions.view },
    };
    return updateInUnit(context, resource, { locator, version: args.version, actions: asBuyerAnswers(restActions(args.actions)) }, argument);
  },
  updateOrder(context: GraphQLContext, locator: Locator, args: UpdateArgs, argument: AsAssociate): Promise<Order> {
    return updateInUnit(context, associateOrderUpdates, { locator, version: args.version, actions: restActions(args.actions) }, argument);
  },
  /** REST `POST …/in-business-unit/key=…/orders`. */
  createOrderFromCart(context: GraphQLContext, draft: InputObject, argument: AsAssociate): Promise<Order> {
    requireAnyScope(context, ORDER_CREATE_SCOPES);
    const scope = associateScope(context, argument);
    return createOrderFromCart(draft, actingAs(context, scope), context.services.documents, {
      async authorize(cart) {
        const permission = { my: 'CreateMyOrdersFromMyCarts', others: 'CreateOrdersFromOthersCarts' } as const;
        await requirePermission({ documents: context.services.documents }, scope, permission, cart.customerId, { action: 'create orders' });
        assertInUnit('cart', cart.businessUnit?.key, scope);
      },
    });
  },
  /** REST `POST …/in-business-unit/key=…/orders/quotes`. */
  createOrderFromQuote(context: GraphQLContext, draft: InputObject, argument: AsAssociate): Promise<Order> {
    requireAnyScope(context, ORDER_CREATE_SCOPES);
    const scope = associateScope(context, argument);
    return createOrderFromQuote(draft, actingAs(context, scope), context.services.documents, systemClock.now(), {
      async authorize(quote) {
        const permission = { my: 'CreateMyOrdersFromMyQuotes', others: 'CreateOrdersFromOthersQuotes' } as const;
        await requirePermission({ documents: context.services.documents }, scope, permission, quote.customer?.id, { action: 'create orders from quotes' });
        assertInUnit('quote', quote.businessUnit?.key, scope);
      },
    });
  },
};
