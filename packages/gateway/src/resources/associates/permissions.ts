/**
 * The reference's Permission enum (types/associate-role/Permission.raml): what an associate role
 * grants in a business unit. Herald checks the cart, quote request, quote, order and business unit
 * ones; the approval-rule and shopping-list ones are kept so roles written for the platform load.
 */
export const PERMISSIONS = [
  'AddChildUnits',
  'UpdateAssociates',
  'UpdateBusinessUnitDetails',
  'UpdateParentUnit',
  'ViewMyCarts',
  'ViewOthersCarts',
  'UpdateMyCarts',
  'UpdateOthersCarts',
  'CreateMyCarts',
  'CreateOthersCarts',
  'DeleteMyCarts',
  'DeleteOthersCarts',
  'ViewMyOrders',
  'ViewOthersOrders',
  'UpdateMyOrders',
  'UpdateOthersOrders',
  'CreateMyOrdersFromMyCarts',
  'CreateMyOrdersFromMyQuotes',
  'CreateOrdersFromOthersCarts',
  'CreateOrdersFromOthersQuotes',
  'ViewMyQuotes',
  'ViewOthersQuotes',
  'AcceptMyQuotes',
  'AcceptOthersQuotes',
  'DeclineMyQuotes',
  'DeclineOthersQuotes',
  'RenegotiateMyQuotes',
  'RenegotiateOthersQuotes',
  'ReassignMyQuotes',
  'ReassignOthersQuotes',
  'ViewMyQuoteRequests',
  'ViewOthersQuoteRequests',
  'UpdateMyQuoteRequests',
  'UpdateOthersQuoteRequests',
  'CreateMyQuoteRequestsFromMyCarts',
  'CreateQuoteRequestsFromOthersCarts',
  'CreateApprovalRules',
  'UpdateApprovalRules',
  'UpdateApprovalFlows',
  'ViewMyShoppingLists',
  'ViewOthersShoppingLists',
  'UpdateMyShoppingLists',
  'UpdateOthersShoppingLists',
  'CreateMyShoppingLists',
  'CreateOthersShoppingLists',
  'DeleteMyShoppingLists',
  'DeleteOthersShoppingLists',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * A permission that depends on whose resource it is (the reference's My/Others pairs): `my` when
 * the resource's customer is the acting associate, `others` when it belongs to another customer.
 */
export interface OwnedPermission {
  my: Permission;
  others: Permission;
}
