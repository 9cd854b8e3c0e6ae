import { invalidOperation, resourceNotFound } from '@herald/model';
import { runPagedQuery, type DocumentStore, type ServerFields } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryRequest, versionParam } from '../../http/query-params.js';
import { buyerOf, type Buyer } from '../shared/buyer.js';
import { requestContext, type RequestContext, type ResourceDeps } from '../shared/context.js';
import { inScope, scopeSql, type DocumentScope } from '../shared/document-scope.js';
import { expanding, type Expansion } from '../shared/route-helpers.js';
import { applyActions, parseUpdateBody, type ActionHandler, type ActionHandlers, type UpdateAction } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { paymentDefinition, paymentFromDraft } from './definition.js';
import { PAYMENT_TYPE_ID, type Payment } from './payment.js';
import { maskedToken, paymentForMessage } from './token.js';

/** me.raml `/payments`: `manage_my_payments` with a customer's or an anonymous session's token. */
const MY_PAYMENTS = { auth: { anyOf: ['manage_my_payments'], me: 'customer-or-anonymous' } } as const;

/** The reference's MyPaymentUpdateAction (types/me/updates/MyPayment*Action.raml). */
const MY_ACTIONS = [
  'addTransaction',
  'changeAmountPlanned',
  'setCustomField',
  'setMethodInfoCustomField',
  'setMethodInfoCustomType',
  'setMethodInfoInterfaceAccount',
  'setMethodInfoInterface',
  'setMethodInfoMethod',
  'setMethodInfoName',
  'setTransactionCustomField',
] as const;

/** A MyTransactionDraft has no `state`: a buyer's transaction starts Initial. */
function withoutState(transaction: unknown): unknown {
  if (typeof transaction !== 'object' || transaction === null || Array.isArray(transaction)) return transaction;
  const { state: _state, ...rest } = transaction as Record<string, unknown>;
  return rest;
}

/**
 * The My actions, each the payment's own handler. "You can only update a Payment if it has no
 * Transactions" (me.raml): checked before each action, so one request may add the first one last.
 */
function myPaymentActions(all: ActionHandlers<Payment>): ActionHandlers<Payment> {
  const guarded = (handler: ActionHandler<Payment>): ActionHandler<Payment> => {
    return (payment, action: UpdateAction, scope) => {
      if (payment.transactions.length > 0) throw invalidOperation('A payment with transactions cannot be updated through /me/payments.');
      const input = action.action === 'addTransaction' ? { ...action, transaction: withoutState(action.transaction) } : action;
      return handler(payment, input, scope);
    };
  };
  return Object.fromEntries(MY_ACTIONS.flatMap((name) => (Object.hasOwn(all, name) && all[name] !== undefined ? [[name, guarded(all[name])]] : [])));
}

/** MyPaymentDraft: amountPlanned (required), paymentMethodInfo, custom, and one transaction; the buyer is the token's. */
async function myPaymentFromDraft(body: unknown, ctx: RequestContext, buyer: Buyer): Promise<Omit<Payment, ServerFields>> {
  const draft = asDraft(body, 'MyPaymentDraft');
  const transactions = draft.transaction === undefined || draft.transaction === null ? [] : [withoutState(draft.transaction)];
  const fields = await paymentFromDraft(
    { amountPlanned: draft.amountPlanned, paymentMethodInfo: draft.paymentMethodInfo, custom: draft.custom, transactions },
    ctx.load,
  );
  return 'customerId' in buyer ? { ...fields, customer: { typeId: 'customer', id: buyer.customerId } } : { ...fields, anonymousId: buyer.anonymousId };
}

function scopeOf(buyer: Buyer): DocumentScope {
  return 'customerId' in buyer
    ? { conditions: [{ path: ['customer', 'id'], value: buyer.customerId }] }
    : { conditions: [{ path: ['anonymousId'], value: buyer.anonymousId }] };
}

/** The reference's MyPayment: the buyer's view of a payment, its method token masked (PaymentMethodToken). */
function asMyPayment(payment: Payment): Record<string, unknown> {
  const { id, version, createdAt, lastModifiedAt, customer, anonymousId, amountPlanned, paymentMethodInfo, transactions, custom } = payment;
  const info = paymentMethodInfo.token === undefined ? paymentMethodInfo : { ...paymentMethodInfo, token: maskedToken(paymentMethodInfo.token) };
  return {
    id,
    version,
    createdAt,
    lastModifiedAt,
    ...(customer === undefined ? {} : { customer }),
    ...(anonymousId === undefined ? {} : { anonymousId }),
    amountPlanned,
    paymentMethodInfo: info,
    transactions,
    ...(custom === undefined ? {} : { custom }),
  };
}

/**
 * `/{projectKey}/me/payments` (me.raml): query, create, and get, update and delete by id, limited
 * to the token's customer or anonymous session; another buyer's payment answers 404 as one that
 * does not exist. Update and delete only while the payment has no transactions.
 */
export function registerMyPaymentRoutes(app: FastifyInstance, deps: ResourceDeps): void {
  const { documents } = deps;
  const actions = myPaymentActions(paymentDefinition(documents).actions);
  const base = '/:projectKey/me/payments';
  const shaped = async (expansion: Expansion, payment: Payment) => asMyPayment(await expansion.one(payment));

  app.get(
    base,
    { config: MY_PAYMENTS },
    expanding(documents, async (request, expansion) => {
      const conditions = scopeSql(scopeOf(buyerOf(request.auth)), 3);
      const projectKey = (request.params as { projectKey: string }).projectKey;
      const page = await runPagedQuery<Payment>(
        documents.db,
        'resources',
        ['r.project_key = $1', 'r.type_id = $2', ...conditions.sql],
        [projectKey, PAYMENT_TYPE_ID, ...conditions.params],
        queryRequest(request.query as Record<string, string | string[] | undefined>),
      );
      return { ...page, results: (await expansion.all(page.results)).map(asMyPayment) };
    }),
  );

  app.post(
    base,
    { config: MY_PAYMENTS },
    expanding(documents, async (request, expansion, reply) => {
      const ctx = requestContext(request, documents);
      const fields = await myPaymentFromDraft(request.body, ctx, buyerOf(request.auth));
      const payment = await documents.create<Payment>(ctx.write, PAYMENT_TYPE_ID, fields, (doc) => [
        { type: 'PaymentCreated', payment: paymentForMessage(doc) },
      ]);
      return reply.status(201).send(await shaped(expansion, payment));
    }),
  );

  const path = `${base}/:id`;
  app.get(
    path,
    { config: MY_PAYMENTS },
    expanding(documents, async (request, expansion) => shaped(expansion, await ownPayment(documents, request))),
  );
  app.post(
    path,
    { config: MY_PAYMENTS },
    expanding(documents, async (request, expansion) => {
      const ctx = requestContext(request, documents);
      const { version, actions: requested } = parseUpdateBody(request.body);
      const own = await ownPayment(documents, request);
      const updated = await documents.update<Payment>(ctx.write, PAYMENT_TYPE_ID, { id: own.id }, version, async (payment, reader) => {
        return { doc: payment, messages: await applyActions(actions, payment, requested, { ctx, reader }) };
      });
      return shaped(expansion, updated);
    }),
  );
  app.delete(
    path,
    { config: MY_PAYMENTS },
    expanding(documents, async (request, expansion) => {
      const ctx = requestContext(request, documents);
      const version = versionParam(request.query as Record<string, string | string[] | undefined>);
      const own = await ownPayment(documents, request);
      const deleted = await documents.db.transaction(async (tx) => {
        const payment = await documents.within(tx).delete<Payment>(ctx.write, PAYMENT_TYPE_ID, { id: own.id }, version);
        // Checked on the deleted (locked) version: throwing rolls the delete back.
        if (payment.transactions.length > 0) throw invalidOperation('A payment with transactions cannot be deleted through /me/payments.');
        return payment;
      });
      return shaped(expansion, deleted);
    }),
  );
}

/** The payment of the path if it is the token's buyer's; 404 otherwise, as if it did not exist. */
async function ownPayment(documents: DocumentStore, request: FastifyRequest): Promise<Payment> {
  const { projectKey, id } = request.params as { projectKey: string; id: string };
  const payment = await documents.get<Payment>(projectKey, PAYMENT_TYPE_ID, { id });
  if (payment === undefined || !inScope(payment, scopeOf(buyerOf(request.auth)))) throw resourceNotFound(notFoundMessage(PAYMENT_TYPE_ID, { id }));
  return payment;
}
