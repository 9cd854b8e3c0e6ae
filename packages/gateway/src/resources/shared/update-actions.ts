import { invalidInput, type MessagePayload } from '@herald/model';
import type { TransactionReader } from '@herald/store';
import { expectedVersion } from '../../http/version.js';
import type { RequestContext } from './context.js';

/** One update action as sent (§4.4.8): `action` names it, the other fields are its input. */
export interface UpdateAction {
  action: string;
  [field: string]: unknown;
}

export interface ActionScope {
  ctx: RequestContext;
  reader: TransactionReader;
}

/**
 * An update action handler mutates `doc` in place and returns the messages it causes. Handlers
 * run one after another on a copy of the document; the store applies all of them or none.
 */
export type ActionHandler<D> = (doc: D, action: UpdateAction, scope: ActionScope) => Promise<MessagePayload[] | void> | MessagePayload[] | void;

export type ActionHandlers<D> = Readonly<Record<string, ActionHandler<D>>>;

/** At most this many update actions per request, in REST and GraphQL alike. */
export const MAX_UPDATE_ACTIONS = 500;

/** Refuses more than MAX_UPDATE_ACTIONS actions (checked before any action is looked at). */
export function assertActionCount(count: number): void {
  if (count > MAX_UPDATE_ACTIONS) throw invalidInput(`At most ${MAX_UPDATE_ACTIONS} update actions are allowed in one request.`, { field: 'actions' });
}

/** Parses `{version, actions}` of an update request (§4.4.8). */
export function parseUpdateBody(body: unknown): { version: number; actions: UpdateAction[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidInput('The update request must be a JSON object with version and actions.');
  }
  const { version, actions } = body as { version?: unknown; actions?: unknown };
  const expected = expectedVersion(version);
  if (!Array.isArray(actions)) throw invalidInput("Request body is missing the 'actions' array.", { field: 'actions' });
  assertActionCount(actions.length);
  actions.forEach((action, index) => {
    if (typeof action !== 'object' || action === null || typeof (action as UpdateAction).action !== 'string') {
      throw invalidInput(`actions[${index}] must be an object with an 'action' name.`);
    }
  });
  return { version: expected, actions: actions as UpdateAction[] };
}

export async function applyActions<D>(handlers: ActionHandlers<D>, doc: D, actions: readonly UpdateAction[], scope: ActionScope): Promise<MessagePayload[]> {
  // Handlers validate references with `ctx.load`; during an update that read must go through the
  // update's transaction: outside it, on PGlite (one statement at a time) it would wait for the
  // transaction, which waits for it, and on PostgreSQL it would hold a second connection.
  const load: RequestContext['load'] = (typeId, locator) => scope.reader.get(typeId, locator);
  const inUpdate: ActionScope = { ctx: { ...scope.ctx, load }, reader: scope.reader };
  const messages: MessagePayload[] = [];
  for (const action of actions) {
    const handler = Object.hasOwn(handlers, action.action) ? handlers[action.action] : undefined;
    if (handler === undefined) {
      throw invalidInput(`Unknown update action '${action.action}'.`, { action: action.action });
    }
    const produced = await handler(doc, action, inUpdate);
    if (produced) messages.push(...produced);
  }
  return messages;
}
