/**
 * resources/product-projections.raml and product-projections-search.raml securedBy
 * view_products or view_published_products (manage_products implies view_products). Without
 * view_products only the current projection of published products (options.ts, `staged`).
 */
export const PROJECTION_SCOPES = { auth: { anyOf: ['view_products', 'view_published_products', 'manage_products'] } } as const;
