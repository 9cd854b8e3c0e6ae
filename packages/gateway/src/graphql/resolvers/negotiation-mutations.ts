import { systemClock } from '@herald/model';
import { createOrderActions } from '../../resources/orders/actions.js';
import { createOrderFromCart } from '../../resources/orders/from-cart.js';
import { createOrderFromQuote } from '../../resources/orders/from-quote.js';
import type { Order } from '../../resources/orders/order.js';
import { ORDER_FROM_QUOTE_SCOPES, ORDER_SCOPES } from '../../resources/orders/routes.js';
import { quoteRequestActions } from '../../resources/quote-requests/actions.js';
import { QUOTE_REQUEST_SCOPES, quoteRequestCreated } from '../../resources/quote-requests/definition.js';
import { quoteRequestFromDraft } from '../../resources/quote-requests/draft.js';
import type { QuoteRequest } from '../../resources/quote-requests/quote-request.js';
import { quoteActions } from '../../resources/quotes/actions.js';
import { createQuote } from '../../resources/quotes/draft.js';
import type { Quote } from '../../resources/quotes/quote.js';
import { QUOTE_SCOPES } from '../../resources/quotes/routes.js';
import { stagedQuoteActions } from '../../resources/staged-quotes/actions.js';
import { createStagedQuote } from '../../resources/staged-quotes/draft.js';
import { STAGED_QUOTE_SCOPES } from '../../resources/staged-quotes/routes.js';
import type { StagedQuote } from '../../resources/staged-quotes/staged-quote.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf, restActions, restBusinessUnitDraft, type InputObject } from '../inputs.js';
import { asAssociateMutations, type AsAssociateArgs } from './negotiation-associate.js';
import { deleteWith, orderLocator, requireAnyScope, updateWith, type DeleteArgs, type OrderLocatorArgs, type UpdateArgs } from './negotiation-writes.js';

/*
 * The seller's mutations of the negotiation (schema/negotiation-mutations.ts): each calls what its
 * REST route calls, with the route's scopes. With `asAssociate`, the as-associate rules apply
 * (negotiation-associate.ts). GraphQL has no injected clock: quote expiry and the timestamps
 * order actions record read the system clock.
 */

type DraftArgs = { draft: InputObject } & AsAssociateArgs;

/** A GraphQL draft as REST's: its `custom` CustomFieldsDraft as `{type, fields}`. */
const restDraft = (draft: InputObject): InputObject => restBusinessUnitDraft(draft);

const orderActions = createOrderActions(systemClock);

export const negotiationMutationResolvers = {
  async createQuoteRequest(_root: unknown, args: DraftArgs, context: GraphQLContext): Promise<QuoteRequest> {
    requireAnyScope(context, QUOTE_REQUEST_SCOPES.manage);
    if (args.asAssociate) return asAssociateMutations.createQuoteRequest(context, restDraft(args.draft), args.asAssociate);
    const fields = await quoteRequestFromDraft(restDraft(args.draft), context.request);
    return context.services.documents.create<QuoteRequest>(context.request.write, 'quote-request', fields, (doc) => [quoteRequestCreated(doc)]);
  },
  updateQuoteRequest(_root: unknown, args: UpdateArgs & AsAssociateArgs, context: GraphQLContext): Promise<QuoteRequest> {
    requireAnyScope(context, QUOTE_REQUEST_SCOPES.manage);
    if (args.asAssociate) return asAssociateMutations.updateQuoteRequest(context, locatorOf(args), args, args.asAssociate);
    return updateWith(
      context,
      context.request,
      { typeId: 'quote-request', locator: locatorOf(args), version: args.version },
      quoteRequestActions,
      restActions(args.actions),
    );
  },
  deleteQuoteRequest(_root: unknown, args: DeleteArgs, context: GraphQLContext): Promise<QuoteRequest> {
    requireAnyScope(context, QUOTE_REQUEST_SCOPES.manage);
    return deleteWith(context, 'quote-request', locatorOf(args), args, 'QuoteRequestDeleted');
  },

  createStagedQuote(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<StagedQuote> {
    requireAnyScope(context, STAGED_QUOTE_SCOPES.manage);
    return createStagedQuote(restDraft(args.draft), context.request, context.services.documents);
  },
  updateStagedQuote(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<StagedQuote> {
    requireAnyScope(context, STAGED_QUOTE_SCOPES.manage);
    return updateWith(
      context,
      context.request,
      { typeId: 'staged-quote', locator: locatorOf(args), version: args.version },
      stagedQuoteActions,
      restActions(args.actions),
    );
  },
  deleteStagedQuote(_root: unknown, args: DeleteArgs, context: GraphQLContext): Promise<StagedQuote> {
    requireAnyScope(context, STAGED_QUOTE_SCOPES.manage);
    return deleteWith(context, 'staged-quote', locatorOf(args), args, 'StagedQuoteDeleted');
  },

  createQuote(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<Quote> {
    requireAnyScope(context, QUOTE_SCOPES.manage);
    return createQuote(restDraft(args.draft), context.request, context.services.documents);
  },
  updateQuote(_root: unknown, args: UpdateArgs & AsAssociateArgs, context: GraphQLContext): Promise<Quote> {
    requireAnyScope(context, QUOTE_SCOPES.manage);
    if (args.asAssociate) return asAssociateMutations.updateQuote(context, locatorOf(args), args, args.asAssociate);
    return updateWith(context, context.request, { typeId: 'quote', locator: locatorOf(args), version: args.version }, quoteActions, restActions(args.actions));
  },
  deleteQuote(_root: unknown, args: DeleteArgs, context: GraphQLContext): Promise<Quote> {
    requireAnyScope(context, QUOTE_SCOPES.manage);
    return deleteWith(context, 'quote', locatorOf(args), args, 'QuoteDeleted');
  },

  createOrderFromCart(_root: unknown, args: DraftArgs, context: GraphQLContext): Promise<Order> {
    if (args.asAssociate) return asAssociateMutations.createOrderFromCart(context, restDraft(args.draft), args.asAssociate);
    requireAnyScope(context, ORDER_SCOPES.manage);
    return createOrderFromCart(restDraft(args.draft), context.request, context.services.documents);
  },
  createOrderFromQuote(_root: unknown, args: DraftArgs, context: GraphQLContext): Promise<Order> {
    if (args.asAssociate) return asAssociateMutations.createOrderFromQuote(context, restDraft(args.draft), args.asAssociate);
    requireAnyScope(context, ORDER_FROM_QUOTE_SCOPES);
    return createOrderFromQuote(restDraft(args.draft), context.request, context.services.documents, systemClock.now());
  },
  async updateOrder(_root: unknown, args: UpdateArgs & OrderLocatorArgs & AsAssociateArgs, context: GraphQLContext): Promise<Order> {
    requireAnyScope(context, ORDER_SCOPES.manage);
    const locator = await orderLocator(context, args);
    if (args.asAssociate) return asAssociateMutations.updateOrder(context, locator, args, args.asAssociate);
    return updateWith(context, context.request, { typeId: 'order', locator, version: args.version }, orderActions, restActions(args.actions));
  },
  async deleteOrder(_root: unknown, args: DeleteArgs & OrderLocatorArgs, context: GraphQLContext): Promise<Order> {
    requireAnyScope(context, ORDER_SCOPES.manage);
    return deleteWith(context, 'order', await orderLocator(context, args), args, 'OrderDeleted');
  },
};
