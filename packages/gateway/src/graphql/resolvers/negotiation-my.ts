import { resourceNotFound, type BaseResource } from '@herald/model';
import type { Locator } from '@herald/store';
import { createOrderFromCart } from '../../resources/orders/from-cart.js';
import { createOrderFromQuote } from '../../resources/orders/from-quote.js';
import type { Order } from '../../resources/orders/order.js';
import { MY_ORDER_FROM_QUOTE_SCOPES, MY_ORDER_SCOPES, myPermission } from '../../resources/orders/routes.js';
import { myQuoteRequestActions } from '../../resources/quote-requests/actions.js';
import { MY_QUOTE_REQUEST_SCOPES, quoteRequestCreated } from '../../resources/quote-requests/definition.js';
import { quoteRequestFromDraft } from '../../resources/quote-requests/draft.js';
import type { QuoteRequest } from '../../resources/quote-requests/quote-request.js';
import { myQuoteActions } from '../../resources/quotes/actions.js';
import { withAnswerPermissions } from '../../resources/quotes/permissions.js';
import type { Quote } from '../../resources/quotes/quote.js';
import { MY_QUOTE_SCOPES } from '../../resources/quotes/routes.js';
import { notFoundMessage } from '../../resources/shared/versioned-routes.js';
import type { ActionHandlers } from '../../resources/shared/update-actions.js';
import { systemClock } from '@herald/model';
import { requireBuyer, requireCustomer } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf, restActions, type InputObject } from '../inputs.js';
import { requireAnyScope, updateWith, type UpdateArgs } from './negotiation-writes.js';

/*
 * The buyer's mutations (reference: resources/me.raml; the official SDL's createMy…/updateMy…):
 * the token's customer's own documents only, another's answering like a missing one (404), with
 * the handlers and permission checks of REST's `/me/quote-requests`, `/me/quotes`, `/me/orders`.
 */

/** §1.4: a B2B quote's answers need the customer's Accept/Decline/RenegotiateMyQuotes in its unit (as on /me/quotes). */
const myAnswers = withAnswerPermissions(myQuoteActions, (scope) => scope.ctx.auth?.customerId);

const customerOfDoc = (doc: { customer?: { id: string } }): string | undefined => doc.customer?.id;

/** An update of the customer's own document; the ownership is checked before the version and again under the lock. */
async function updateOwn<D extends BaseResource & { customer?: { id: string } }>(
  context: GraphQLContext,
  typeId: string,
  args: UpdateArgs,
  handlers: ActionHandlers<D>,
): Promise<D> {
  const customerId = requireCustomer(context.auth);
  const locator: Locator = locatorOf(args);
  const current = await context.services.documents.get<D>(context.projectKey, typeId, locator);
  const notFound = () => resourceNotFound(notFoundMessage(typeId, locator));
  if (current === undefined || customerOfDoc(current) !== customerId) throw notFound();
  return updateWith<D>(context, context.request, { typeId, locator: { id: current.id }, version: args.version }, handlers, restActions(args.actions), (doc) => {
    if (customerOfDoc(doc) !== customerId) throw notFound();
  });
}

export const myNegotiationMutationResolvers = {
  async createMyQuoteRequest(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<QuoteRequest> {
    requireAnyScope(context, MY_QUOTE_REQUEST_SCOPES.manage);
    const customerId = requireCustomer(context.auth);
    const fields = await quoteRequestFromDraft(args.draft, context.request, { customerId });
    return context.services.documents.create<QuoteRequest>(context.request.write, 'quote-request', fields, (doc) => [quoteRequestCreated(doc)]);
  },
  updateMyQuoteRequest(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<QuoteRequest> {
    requireAnyScope(context, MY_QUOTE_REQUEST_SCOPES.manage);
    return updateOwn<QuoteRequest>(context, 'quote-request', args, myQuoteRequestActions);
  },
  updateMyQuote(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<Quote> {
    requireAnyScope(context, MY_QUOTE_SCOPES.manage);
    return updateOwn<Quote>(context, 'quote', args, myAnswers);
  },
  createMyOrderFromCart(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<Order> {
    requireAnyScope(context, MY_ORDER_SCOPES.manage);
    const buyer = requireBuyer(context.auth);
    const authorize = myPermission(context.auth, 'CreateMyOrdersFromMyCarts', context.services);
    return createOrderFromCart(args.draft, context.request, context.services.documents, { buyer, authorize });
  },
  createMyOrderFromQuote(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<Order> {
    requireAnyScope(context, MY_ORDER_FROM_QUOTE_SCOPES);
    const customerId = requireCustomer(context.auth);
    const authorize = myPermission(context.auth, 'CreateMyOrdersFromMyQuotes', context.services);
    return createOrderFromQuote(args.draft, context.request, context.services.documents, systemClock.now(), { customerId, authorize });
  },
};
