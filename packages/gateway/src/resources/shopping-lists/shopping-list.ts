import type { BaseResource, CustomFields, KeyReference, LocalizedString, Reference } from '@herald/model';

export const SHOPPING_LIST_TYPE_ID = 'shopping-list';
/** Custom fields of a list's line items: the reference's ResourceTypeId `line-item` ("LineItem on ShoppingList"). */
export const LINE_ITEM_CUSTOM_TYPE_ID = 'line-item';
export const TEXT_LINE_ITEM_CUSTOM_TYPE_ID = 'shopping-list-text-line-item';

/**
 * The reference's ShoppingListLineItem (types/shopping-list/ShoppingListLineItem.raml). `name`,
 * `productType` and `published` are copied from the product when the item is added; `name`,
 * `published` and `deactivatedAt` are answered from the current product (follow-products.ts);
 * `variant` and `productSlug` are not stored: they are read from the product when expanded
 * (expansion.ts). Without `variantId` the item follows the product's master variant.
 */
export interface ShoppingListLineItem {
  id: string;
  key?: string;
  productId: string;
  variantId?: number;
  productType: Reference<'product-type'>;
  name: LocalizedString;
  published: boolean;
  quantity: number;
  addedAt: string;
  deactivatedAt?: string;
  custom?: CustomFields;
}

/** The reference's TextLineItem (types/shopping-list/TextLineItem.raml). */
export interface TextLineItem {
  id: string;
  key?: string;
  name: LocalizedString;
  description?: LocalizedString;
  quantity: number;
  addedAt: string;
  custom?: CustomFields;
}

/** The reference's ShoppingList (types/shopping-list/ShoppingList.raml). */
export interface ShoppingList extends BaseResource {
  key?: string;
  name: LocalizedString;
  slug?: LocalizedString;
  description?: LocalizedString;
  customer?: Reference<'customer'>;
  anonymousId?: string;
  store?: KeyReference<'store'>;
  businessUnit?: KeyReference<'business-unit'>;
  lineItems: ShoppingListLineItem[];
  textLineItems: TextLineItem[];
  /** Days without a modification after which the list is deleted (retention.ts). */
  deleteDaysAfterLastModification: number;
  custom?: CustomFields;
}
