import { invalidInput, resourceNotFound, type BaseResource, type MessagePayload } from '@herald/model';
import type { Locator } from '@herald/store';
import { expectedVersion } from '../../http/version.js';
import type { Order } from '../../resources/orders/order.js';
import type { RequestContext } from '../../resources/shared/context.js';
import { applyActions, type ActionHandlers, type UpdateAction } from '../../resources/shared/update-actions.js';
import { hasScope, insufficientScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import type { InputObject } from '../inputs.js';
import type { IdOrKey } from './types.js';

/*
 * What the negotiation's mutations share: the REST routes' scope rule (any of a route's scopes),
 * and the store calls those routes make with the resource modules' action handlers, so GraphQL
 * writes the same documents and messages in the same transactions.
 */

export interface UpdateArgs extends IdOrKey {
  version: number;
  actions: readonly InputObject[];
}

export interface DeleteArgs extends IdOrKey {
  version: number;
  personalDataErasure?: boolean | null;
}

export interface OrderLocatorArgs {
  id?: string | null;
  orderNumber?: string | null;
}

/** REST's `auth: { anyOf }`: a token with any of `scopes` (each with the usual implications). */
export function requireAnyScope(context: GraphQLContext, scopes: readonly string[]): void {
  if (!scopes.some((scope) => hasScope(context.auth, scope))) throw insufficientScope(scopes[0] ?? 'manage_project', context.projectKey);
}

/** Applies `actions` with `handlers` under the row lock (as REST's scoped routes do); `check` runs after them. */
export function updateWith<D extends BaseResource>(
  context: GraphQLContext,
  ctx: RequestContext,
  target: { typeId: string; locator: Locator; version: number },
  handlers: ActionHandlers<D>,
  actions: readonly UpdateAction[],
  check?: (doc: D) => Promise<void> | void,
): Promise<D> {
  return context.services.documents.update<D>(ctx.write, target.typeId, target.locator, expectedVersion(target.version), async (doc, reader) => {
    const messages = await applyActions(handlers, doc, actions, { ctx, reader });
    await check?.(doc);
    return { doc, messages };
  });
}

/** REST's delete: version-checked, `dataErasure` where the resource holds personal data, with its Deleted message. */
export function deleteWith<D extends BaseResource>(context: GraphQLContext, typeId: string, locator: Locator, args: DeleteArgs, message: string): Promise<D> {
  return context.services.documents.delete<D>(context.request.write, typeId, locator, expectedVersion(args.version), {
    dataErasure: args.personalDataErasure === true,
    messages: (): MessagePayload[] => [{ type: message }],
  });
}

/** The official `id` / `orderNumber` arguments of updateOrder and deleteOrder, as the order's id (404 when none has it). */
export async function orderLocator(context: GraphQLContext, args: OrderLocatorArgs): Promise<Locator> {
  const hasId = typeof args.id === 'string';
  const hasNumber = typeof args.orderNumber === 'string';
  if (hasId === hasNumber) throw invalidInput("Exactly one of 'id' and 'orderNumber' is required.", { field: hasId ? 'orderNumber' : 'id' });
  if (hasId) return { id: args.id as string };
  const found = await context.services.documents.query<Order>(context.projectKey, 'order', {
    where: ['orderNumber = :orderNumber'],
    vars: { orderNumber: [args.orderNumber as string] },
    limit: 1,
  });
  const order = found.results[0];
  if (order === undefined) throw resourceNotFound(`The order with orderNumber '${args.orderNumber as string}' was not found.`);
  return { id: order.id };
}
