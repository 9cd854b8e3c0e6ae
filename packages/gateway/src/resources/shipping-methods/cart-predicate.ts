import { compiledPredicate, PredicateSyntaxError, type PredicateSubject } from '../../predicates/index.js';
import type { Cart, LineItem } from '../carts/cart.js';

/**
 * A line item as a cart predicate's line item functions read it (the reference's "Line Item field
 * identifiers"): its own fields, with `sku` and `attributes` of its variant, `product` by id and key,
 * and `price` the unit price's value.
 */
function lineItemSubject(item: PredicateLineItem): PredicateSubject {
  const product = item.productKey === undefined ? { id: item.productId } : { id: item.productId, key: item.productKey };
  return { ...item, sku: item.variant.sku, attributes: item.variant.attributes ?? [], product, price: item.price.value };
}

/** What a line item subject reads: carts' LineItem and orders' OrderLineItem alike. */
type PredicateLineItem = Pick<LineItem, 'productId' | 'productKey' | 'variant' | 'price'>;

/**
 * What a cart predicate reads of a cart: a Cart, or an Order (an order edit's preview, for
 * matching-orderedit), whose fields a predicate names the same way.
 */
export type PredicateCart = Pick<Cart, 'customerId' | 'customerEmail' | 'totalPrice'> & {
  lineItems: readonly PredicateLineItem[];
  customLineItems: readonly object[];
};

/** The cart as a cart predicate reads it (ShippingMethod.predicate is a "Valid Cart predicate"). */
export function cartPredicateSubject(cart: PredicateCart): PredicateSubject {
  const customer = cart.customerId === undefined ? undefined : { id: cart.customerId, email: cart.customerEmail };
  return {
    ...cart,
    currency: cart.totalPrice.currencyCode,
    customer,
    lineItems: cart.lineItems.map(lineItemSubject),
    customLineItems: cart.customLineItems,
  };
}

/**
 * Whether a method's predicate admits the cart: matching-cart lists a ShippingMethod "if the Cart
 * satisfies its `predicate`" (resources/shipping-methods.raml); a method without one admits every cart.
 */
export function predicateAdmits(predicate: string | undefined, cart: PredicateSubject): boolean {
  if (predicate === undefined) return true;
  try {
    return compiledPredicate(predicate, 'cart').test(cart);
  } catch (error) {
    // Methods stored before predicates were evaluated may hold text that is no cart predicate: such a
    // predicate matches no cart rather than failing the whole answer.
    if (error instanceof PredicateSyntaxError) return false;
    throw error;
  }
}
