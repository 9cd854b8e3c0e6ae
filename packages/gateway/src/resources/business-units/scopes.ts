/** Scopes of business units (§5.8 leaves them open; Herald follows the platform's naming). */
export const VIEW_BUSINESS_UNITS = 'view_business_units';
export const MANAGE_BUSINESS_UNITS = 'manage_business_units';
/** The My operations: a customer token (password flow) with this scope. */
export const MANAGE_MY_BUSINESS_UNITS = 'manage_my_business_units';
