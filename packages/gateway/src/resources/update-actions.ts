import { invalidInput, type MessagePayload } from '@herald/model';
import type { TransactionReader } from '@herald/store';
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
export type ActionHandler<D> = (
  doc: D,
  action: UpdateAction,
  scope: ActionScope,
) => Promise<MessagePayload[] | void> | MessagePayload[] | void;

export type ActionHandlers<D> = Readonly<Record<string, ActionHandler<D>>>;

/** Parses `{version, actions}` of an update request (§4.4.8). */
export function parseUpdateBody(body: unknown): { version: number; actions: UpdateAction[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidInput('The update request must be a JSON object with version and actions.');
  }
  const { version, actions } = body as { version?: unknown; actions?: unknown };
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw invalidInput("Request body is missing a valid 'version' (a positive integer).", { field: 'version' });
  }
  if (!Array.isArray(actions)) throw invalidInput("Request body is missing the 'actions' array.", { field: 'actions' });
  if (actions.length > 500) throw invalidInput('At most 500 update actions are allowed in one request.');
  actions.forEach((action, index) => {
    if (typeof action !== 'object' || action === null || typeof (action as UpdateAction).action !== 'string') {
      throw invalidInput(`actions[${index}] must be an object with an 'action' name.`);
    }
  });
  return { version, actions: actions as UpdateAction[] };
}

export async function applyActions<D>(
  handlers: ActionHandlers<D>,
  doc: D,
  actions: readonly UpdateAction[],
  scope: ActionScope,
): Promise<MessagePayload[]> {
  const messages: MessagePayload[] = [];
  for (const action of actions) {
    const handler = Object.hasOwn(handlers, action.action) ? handlers[action.action] : undefined;
    if (handler === undefined) {
      throw invalidInput(`Unknown update action '${action.action}'.`, { action: action.action });
    }
    const produced = await handler(doc, action, scope);
    if (produced) messages.push(...produced);
  }
  return messages;
}
