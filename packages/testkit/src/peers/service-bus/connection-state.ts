import type { Connection, Sender } from 'rhea';

/**
 * What the peer remembers per AMQP connection: the claims granted by CBS put-token (the scope a
 * token covers, until it expires) and the links on which request/response replies go back.
 */
export interface ConnectionState {
  /** Lower-case entity path a token covers ('' = the whole namespace) → expiry. */
  readonly claims: Map<string, Date>;
  /** Client receiver links of $cbs and $management, by link name (what requests put in `reply_to`). */
  readonly replyLinks: Map<string, Sender>;
}

const states = new WeakMap<Connection, ConnectionState>();

export function stateOf(connection: Connection): ConnectionState {
  let state = states.get(connection);
  if (state === undefined) {
    state = { claims: new Map(), replyLinks: new Map() };
    states.set(connection, state);
  }
  return state;
}

/** True when an unexpired claim covers `path` (the claim's path itself or anything below it). */
export function isAuthorized(state: ConnectionState, path: string, now: Date): boolean {
  for (const [scope, expiresAt] of state.claims) {
    if (expiresAt.getTime() > now.getTime() && scopeCovers(scope, path)) return true;
  }
  return false;
}

/** A token for an entity also covers what lies below it (its subscriptions, its $management node). */
export function scopeCovers(scope: string, path: string): boolean {
  const target = path.toLowerCase();
  return scope === '' || target === scope || target.startsWith(`${scope}/`);
}
