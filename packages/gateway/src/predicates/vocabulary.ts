/**
 * What each kind of predicate may name (the platform's "Discount Predicate Field Identifiers").
 * Only the first segment of a field is checked: what follows `custom.`, `attributes.`, addresses
 * and the like is open, as Custom Fields and Attributes are the project's own. Herald's names are
 * the reference's; `productId` (Herald's older line item name) is accepted beside `product.id`.
 */
export type PredicateKind = 'cart' | 'lineItem' | 'customLineItem' | 'product';

/** A function over a cart's items: which items, and what it yields. */
export interface ItemFunction {
  items: 'lineItems' | 'customLineItems';
  yields: 'count' | 'total' | 'netTotal' | 'grossTotal' | 'exists' | 'forAll';
}

const LINE_ITEM_FUNCTIONS: Readonly<Record<string, ItemFunction>> = {
  lineItemCount: { items: 'lineItems', yields: 'count' },
  lineItemTotal: { items: 'lineItems', yields: 'total' },
  lineItemNetTotal: { items: 'lineItems', yields: 'netTotal' },
  lineItemGrossTotal: { items: 'lineItems', yields: 'grossTotal' },
  lineItemExists: { items: 'lineItems', yields: 'exists' },
  forAllLineItems: { items: 'lineItems', yields: 'forAll' },
  customLineItemCount: { items: 'customLineItems', yields: 'count' },
  customLineItemTotal: { items: 'customLineItems', yields: 'total' },
  customLineItemNetTotal: { items: 'customLineItems', yields: 'netTotal' },
  customLineItemGrossTotal: { items: 'customLineItems', yields: 'grossTotal' },
  customLineItemExists: { items: 'customLineItems', yields: 'exists' },
  forAllCustomLineItems: { items: 'customLineItems', yields: 'forAll' },
};

const ROOTS: Readonly<Record<PredicateKind, ReadonlySet<string>>> = {
  cart: new Set([
    'id',
    'key',
    'currency',
    'country',
    'totalPrice',
    'taxedPrice',
    'createdAt',
    'lastModifiedAt',
    'shippingAddress',
    'billingAddress',
    'shippingInfo',
    'shippingMode',
    'customer',
    'customerId',
    'customerEmail',
    'customerGroup',
    'anonymousId',
    'store',
    'businessUnit',
    'custom',
    'origin',
    'cartState',
  ]),
  lineItem: new Set([
    'id',
    'key',
    'sku',
    'productId',
    'productKey',
    'product',
    'productType',
    'name',
    'quantity',
    'price',
    'totalPrice',
    'taxedPrice',
    'taxRate',
    'attributes',
    'variant',
    'categories',
    'categoriesWithAncestors',
    'custom',
    'supplyChannel',
    'distributionChannel',
    'lineItemMode',
    'priceMode',
  ]),
  customLineItem: new Set(['id', 'key', 'name', 'slug', 'money', 'totalPrice', 'taxedPrice', 'quantity', 'taxCategory', 'taxRate', 'custom', 'priceMode']),
  product: new Set([
    'product',
    'productId',
    'productType',
    'variant',
    'sku',
    'attributes',
    'price',
    'amount',
    'centAmount',
    'currency',
    'country',
    'customerGroup',
    'channel',
    'categories',
    'categoriesWithAncestors',
  ]),
};

export function isKnownRoot(kind: PredicateKind, root: string): boolean {
  return ROOTS[kind].has(root);
}

/** The item function `name` in a predicate of `kind` (cart predicates only). */
export function itemFunction(kind: PredicateKind, name: string): ItemFunction | undefined {
  return kind === 'cart' && Object.hasOwn(LINE_ITEM_FUNCTIONS, name) ? LINE_ITEM_FUNCTIONS[name] : undefined;
}

/** The kind of predicate an item function's argument is. */
export function argumentKind(fn: ItemFunction): PredicateKind {
  return fn.items === 'lineItems' ? 'lineItem' : 'customLineItem';
}

/**
 * Which resource a field ending in `.id` names, by the segment before it (`customerGroup.id`,
 * `categories.id`), or by the whole field for `productId` / `customerId`: what the resources'
 * generated `references` list (ProductDiscount.references, CartDiscount.references).
 */
const REFERENCED_TYPES: Readonly<Record<string, string>> = {
  customerGroup: 'customer-group',
  customer: 'customer',
  categories: 'category',
  categoriesWithAncestors: 'category',
  product: 'product',
  productType: 'product-type',
  channel: 'channel',
  supplyChannel: 'channel',
  distributionChannel: 'channel',
  shippingMethod: 'shipping-method',
  taxCategory: 'tax-category',
};

export function referencedTypeOf(path: readonly string[]): string | undefined {
  if (path.length === 1 && path[0] === 'productId') return 'product';
  if (path.length === 1 && path[0] === 'customerId') return 'customer';
  if (path.length < 2 || path[path.length - 1] !== 'id') return undefined;
  const owner = path[path.length - 2] ?? '';
  return Object.hasOwn(REFERENCED_TYPES, owner) ? REFERENCED_TYPES[owner] : undefined;
}
