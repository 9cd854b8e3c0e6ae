import type { AuthContext } from '../../auth/types.js';
import { implies } from '../../oauth/scopes.js';

/** The scope that shows every message of the project (the platform's `view_messages`). */
export const VIEW_MESSAGES = 'view_messages';

/**
 * The view scope of each resource type that produces messages. A message is as confidential as
 * its resource: its payload often carries the whole resource (`QuoteRequestCreated`).
 */
export const VIEW_SCOPE_OF_RESOURCE_TYPE: Readonly<Record<string, string>> = {
  'quote-request': 'view_quote_requests',
  'business-unit': 'view_business_units',
  customer: 'view_customers',
  store: 'view_stores',
  cart: 'view_orders',
  order: 'view_orders',
  state: 'view_states',
  type: 'view_types',
  subscription: 'view_subscriptions',
};

/**
 * Every scope that opens the Messages API at all: `view_messages`, or the view (or manage) scope
 * of any resource type, which then shows that type's messages only.
 */
export const MESSAGE_ROUTE_SCOPES: readonly string[] = [
  VIEW_MESSAGES,
  ...new Set(Object.values(VIEW_SCOPE_OF_RESOURCE_TYPE).flatMap((scope) => [scope, scope.replace(/^view_/, 'manage_')])),
];

/** Which messages a token may read: all of them, or those of the listed resource types. */
export type MessageAccess = { all: true } | { all: false; resourceTypeIds: string[] };

export function messageAccess(auth: AuthContext | undefined): MessageAccess {
  const scopes = auth?.scopes ?? new Set<string>();
  if (implies(scopes, VIEW_MESSAGES)) return { all: true };
  const resourceTypeIds = Object.entries(VIEW_SCOPE_OF_RESOURCE_TYPE)
    .filter(([, scope]) => implies(scopes, scope))
    .map(([typeId]) => typeId);
  return { all: false, resourceTypeIds };
}

export function mayRead(access: MessageAccess, resourceTypeId: string): boolean {
  return access.all || access.resourceTypeIds.includes(resourceTypeId);
}
