import type { ProductVariant } from '../products/product.js';
import type { Assortment } from './availability.js';

interface WithVariants<V extends ProductVariant> {
  id: string;
  masterVariant: V;
  variants: V[];
}

/**
 * The projection a Store shows of a product (Get ProductProjection in Store: "if ProductSelection
 * is used, it affects the availability of the Product"; since the variant-level selections, the
 * projection keeps only the variants the Store's selections offer). Undefined when the Store
 * offers none of the product's variants: the product is not available there (404).
 *
 * When the master variant is not offered, the reference does not say what the projection shows;
 * a ProductProjection always has a masterVariant (ProductProjection.raml), and Herald shows the
 * first offered variant in its place (the lowest id, the order of `variants`), so that a client
 * never sees a variant the Store does not sell.
 */
export function offeredProjection<V extends ProductVariant, P extends WithVariants<V>>(projection: P, assortment: Assortment): P | undefined {
  const offer = assortment(projection.id);
  if (offer === undefined) return undefined;
  const [masterVariant, ...variants] = [projection.masterVariant, ...projection.variants].filter((variant) => offer(variant.sku));
  if (masterVariant === undefined) return undefined;
  return { ...projection, masterVariant, variants };
}
