/** resources/shopping-lists.raml, in-store/shopping-lists-in-store.raml and as-associate.raml securedBy. */
export const SHOPPING_LIST_SCOPES = { view: ['view_shopping_lists'], manage: ['manage_shopping_lists'] } as const;
/** me.raml and in-store/my-carts-orders-shoppinglists-in-store.raml: `manage_my_shopping_lists`. */
export const MY_SHOPPING_LIST_SCOPES = { view: [], manage: ['manage_my_shopping_lists'] } as const;
