import { invalidInput, type BaseResource, type Reference } from '@herald/model';
import type { Locator } from '@herald/store';
import type { Order } from '../../resources/orders/order.js';
import type { QuoteRequest } from '../../resources/quote-requests/quote-request.js';
import type { Quote } from '../../resources/quotes/quote.js';
import type { StagedQuote } from '../../resources/staged-quotes/staged-quote.js';
import { requireScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf } from '../inputs.js';
import type { IdOrKey, QueryArgs } from './types.js';

interface QueryResult<D> {
  offset: number;
  count: number;
  total: number;
  exists: boolean;
  results: D[];
}

async function one<D extends BaseResource>(context: GraphQLContext, scope: string, typeId: string, locator: Locator): Promise<D | null> {
  requireScope(context.auth, scope);
  return (await context.services.documents.get<D>(context.projectKey, typeId, locator)) ?? null;
}

async function page<D extends BaseResource>(
  context: GraphQLContext,
  scope: string,
  typeId: string,
  args: QueryArgs,
  vars: Record<string, string[]> = {},
): Promise<QueryResult<D>> {
  requireScope(context.auth, scope);
  const found = await context.services.documents.query<D>(context.projectKey, typeId, {
    where: args.where === undefined || args.where === null ? [] : [args.where],
    vars,
    sort: args.sort ?? [],
    ...(args.limit === undefined || args.limit === null ? {} : { limit: args.limit }),
    ...(args.offset === undefined || args.offset === null ? {} : { offset: args.offset }),
    withTotal: true,
  });
  const total = found.total ?? found.count;
  return { offset: found.offset, count: found.count, total, exists: total > 0, results: found.results };
}

/** The official `order(id, orderNumber)`: exactly one of them (the order number through a bound variable). */
async function orderByIdOrNumber(args: { id?: string | null; orderNumber?: string | null }, context: GraphQLContext): Promise<Order | null> {
  const hasId = typeof args.id === 'string';
  const hasNumber = typeof args.orderNumber === 'string';
  if (hasId === hasNumber) throw invalidInput("Exactly one of 'id' and 'orderNumber' is required.");
  if (hasId) return one<Order>(context, 'view_orders', 'order', { id: args.id as string });
  const found = await page<Order>(
    context,
    'view_orders',
    'order',
    { where: 'orderNumber = :orderNumber', limit: 1 },
    { orderNumber: [args.orderNumber as string] },
  );
  return found.results[0] ?? null;
}

export const negotiationQueryResolvers = {
  quoteRequest: (_root: unknown, args: IdOrKey, context: GraphQLContext) => one<QuoteRequest>(context, 'view_quote_requests', 'quote-request', locatorOf(args)),
  quoteRequests: (_root: unknown, args: QueryArgs, context: GraphQLContext) => page<QuoteRequest>(context, 'view_quote_requests', 'quote-request', args),
  stagedQuote: (_root: unknown, args: IdOrKey, context: GraphQLContext) => one<StagedQuote>(context, 'view_staged_quotes', 'staged-quote', locatorOf(args)),
  stagedQuotes: (_root: unknown, args: QueryArgs, context: GraphQLContext) => page<StagedQuote>(context, 'view_staged_quotes', 'staged-quote', args),
  quote: (_root: unknown, args: IdOrKey, context: GraphQLContext) => one<Quote>(context, 'view_quotes', 'quote', locatorOf(args)),
  quotes: (_root: unknown, args: QueryArgs, context: GraphQLContext) => page<Quote>(context, 'view_quotes', 'quote', args),
  order: (_root: unknown, args: { id?: string | null; orderNumber?: string | null }, context: GraphQLContext) => orderByIdOrNumber(args, context),
  orders: (_root: unknown, args: QueryArgs, context: GraphQLContext) => page<Order>(context, 'view_orders', 'order', args),
};

const ref = <R extends Reference | { typeId: string; key: string }>(value: R | undefined): R | null => value ?? null;

/** The official `…Ref` fields: the stored references as they are. */
export const quoteRequestFieldResolvers = {
  customerRef: (doc: QuoteRequest) => doc.customer,
  businessUnitRef: (doc: QuoteRequest) => ref(doc.businessUnit),
  storeRef: (doc: QuoteRequest) => ref(doc.store),
  stateRef: (doc: QuoteRequest) => ref(doc.state),
};

export const stagedQuoteFieldResolvers = {
  customerRef: (doc: StagedQuote) => ref(doc.customer),
  quoteRequestRef: (doc: StagedQuote) => doc.quoteRequest,
  quotationCartRef: (doc: StagedQuote) => doc.quotationCart,
  businessUnitRef: (doc: StagedQuote) => ref(doc.businessUnit),
  storeRef: (doc: StagedQuote) => ref(doc.store),
  stateRef: (doc: StagedQuote) => ref(doc.state),
};

export const quoteFieldResolvers = {
  quoteRequestRef: (doc: Quote) => doc.quoteRequest,
  stagedQuoteRef: (doc: Quote) => doc.stagedQuote,
  customerRef: (doc: Quote) => ref(doc.customer),
  businessUnitRef: (doc: Quote) => ref(doc.businessUnit),
  storeRef: (doc: Quote) => ref(doc.store),
  stateRef: (doc: Quote) => ref(doc.state),
};

export const orderFieldResolvers = {
  cartRef: (doc: Order) => ref(doc.cart),
  quoteRef: (doc: Order) => ref(doc.quote),
  businessUnitRef: (doc: Order) => ref(doc.businessUnit),
  storeRef: (doc: Order) => ref(doc.store),
  stateRef: (doc: Order) => ref(doc.state),
};

function keyText(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError('KeyReferenceInput must be a key (a non-empty string).');
  return value;
}

/** The official SDL's scalar `KeyReferenceInput` (asAssociate's `businessUnitKey`): a resource's key. */
export const KeyReferenceInput = {
  serialize: keyText,
  parseValue: keyText,
  parseLiteral(ast: { kind: string; value?: unknown }): string {
    if (ast.kind !== 'StringValue') throw new TypeError('KeyReferenceInput must be a string literal.');
    return keyText(ast.value);
  },
};
