import { PERMISSIONS, type Permission } from './permissions.js';

/**
 * §2.2's AssociateRole enumeration `Admin`, `Buyer` as two built-in associate roles. Their keys are
 * the spec's names (`Admin`, `Buyer`): those are the keys the reference's AssociateRoleKeyReference
 * in `associateRoleAssignments` carries for them, and what units stored before roles existed hold.
 * They are not documents: `/associate-roles` cannot create, change or delete them (their keys are
 * reserved in any letter case), and they need no AssociateRole to exist. docs/compatibility.md
 * lists the mapping.
 */
export const BUILT_IN_ROLE_KEYS = ['Admin', 'Buyer'] as const;
export type BuiltInRoleKey = (typeof BUILT_IN_ROLE_KEYS)[number];

/**
 * What a Buyer does in the B2B flow of §1.4: its own carts, quote requests, quotes, orders and
 * shopping lists, start to end. Nothing of other associates, nothing of the unit itself.
 */
const BUYER_PERMISSIONS: readonly Permission[] = [
  'ViewMyCarts',
  'CreateMyCarts',
  'UpdateMyCarts',
  'DeleteMyCarts',
  'ViewMyOrders',
  'UpdateMyOrders',
  'CreateMyOrdersFromMyCarts',
  'CreateMyOrdersFromMyQuotes',
  'ViewMyQuotes',
  'AcceptMyQuotes',
  'DeclineMyQuotes',
  'RenegotiateMyQuotes',
  'ReassignMyQuotes',
  'ViewMyQuoteRequests',
  'UpdateMyQuoteRequests',
  'CreateMyQuoteRequestsFromMyCarts',
  'ViewMyShoppingLists',
  'CreateMyShoppingLists',
  'UpdateMyShoppingLists',
  'DeleteMyShoppingLists',
];

/** An Admin may do everything in its unit (Herald had it change the unit through the My operations). */
export const BUILT_IN_ROLE_PERMISSIONS: Readonly<Record<BuiltInRoleKey, readonly Permission[]>> = {
  Admin: PERMISSIONS,
  Buyer: BUYER_PERMISSIONS,
};

/** The built-in role a key names exactly, if any. */
export function builtInRole(key: string): BuiltInRoleKey | undefined {
  return BUILT_IN_ROLE_KEYS.find((known) => known === key);
}

/** A key a stored associate role may not take: a built-in one in any letter case. */
export function isReservedRoleKey(key: string): boolean {
  return BUILT_IN_ROLE_KEYS.some((known) => known.toLowerCase() === key.toLowerCase());
}
