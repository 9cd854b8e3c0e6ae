import { ApiError } from '@herald/model';
import type { AuthContext } from '../auth/types.js';
import { implies } from '../oauth/scopes.js';
import { MANAGE_BUSINESS_UNITS, MANAGE_MY_BUSINESS_UNITS, VIEW_BUSINESS_UNITS } from '../resources/business-units/scopes.js';

/**
 * Every scope that can do something through GraphQL: the route admits a token with any of them
 * (`config.auth`), then each resolver checks the one it needs.
 */
export const GRAPHQL_SCOPES: readonly string[] = [
  VIEW_BUSINESS_UNITS,
  MANAGE_BUSINESS_UNITS,
  MANAGE_MY_BUSINESS_UNITS,
  'view_associate_roles',
  'manage_associate_roles',
  'manage_orders',
  'manage_my_orders',
  'view_project_settings',
  'manage_project_settings',
  // Staged quotes, quotes and orders (schema/negotiation.ts).
  'view_staged_quotes',
  'manage_staged_quotes',
  'view_quotes',
  'manage_quotes',
  'view_orders',
  // Quote requests and the buyer's negotiation mutations (schema/negotiation-mutations.ts).
  'view_quote_requests',
  'manage_quote_requests',
  'manage_my_quote_requests',
  'manage_my_quotes',
  // Products and product projection search (schema/products.ts).
  'view_products',
  'view_published_products',
  'manage_products',
  // Product selections (schema/product-selections.ts).
  'view_product_selections',
  'manage_product_selections',
];

/**
 * Reading Store documents (`BusinessUnit.stores`): the scope REST's store routes and reference
 * expansion ask for (`EXPANSION_VIEW_SCOPES` in resources/shared/route-helpers.ts).
 */
export const VIEW_STORES = 'view_stores';

export function insufficientScope(scope: string, projectKey: string): ApiError {
  return new ApiError(403, {
    code: 'InsufficientScope',
    message: `Insufficient scope: ${scope}:${projectKey} is needed for this field.`,
    scope,
  });
}

/** The resolver's scope, with the same implications as REST (`manage_project`, `manage_X` ⇒ `view_X`). */
export function requireScope(auth: AuthContext, scope: string): void {
  if (!implies(auth.scopes, scope)) throw insufficientScope(scope, auth.projectKey);
}

export function hasScope(auth: AuthContext, scope: string): boolean {
  return implies(auth.scopes, scope);
}

/** The My operations act for the token's customer (password flow, §5.3). */
export function requireCustomer(auth: AuthContext): string {
  if (auth.customerId === undefined) {
    throw new ApiError(403, {
      code: 'InsufficientScope',
      message: 'This field acts for a customer: use a customer token (password flow).',
    });
  }
  return auth.customerId;
}

/** My Cart acts for the token's customer or anonymous session (§5.3). */
export function requireBuyer(auth: AuthContext): { customerId: string } | { anonymousId: string } {
  if (auth.customerId !== undefined) return { customerId: auth.customerId };
  if (auth.anonymousId !== undefined) return { anonymousId: auth.anonymousId };
  throw new ApiError(403, {
    code: 'InsufficientScope',
    message: 'This field acts for a buyer: use a customer or anonymous session token.',
  });
}
