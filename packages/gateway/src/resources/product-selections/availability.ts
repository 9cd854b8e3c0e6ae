import type { DocumentStore } from '@herald/store';
import type { ProductSelectionSetting, Store } from '../stores/store.js';
import { assignmentOf, PRODUCT_SELECTION_TYPE_ID, type ProductSelection } from './product-selection.js';
import { selectsSku } from './variant-selection.js';

/** Whether a Store offers a variant of a product, by the variant's SKU. */
export type VariantOffer = (sku: string | undefined) => boolean;

/**
 * Which variants of a product (by id) a Store offers: undefined when the product is not
 * available in the Store at all.
 */
export type Assortment = (productId: string) => VariantOffer | undefined;

const everyVariant: VariantOffer = () => true;
const everyProduct: Assortment = () => everyVariant;
const noProduct: Assortment = () => undefined;

/**
 * The variants one selection offers of a product (AssignedProductReference): an `Individual`
 * selection those of its `variantSelection` ("in absence of this field, all Variants are deemed
 * to be included"), an `IndividualExclusion` one those its `variantExclusion` does not list, and
 * every variant of a product it does not name ("in absence of [variantExclusion], all Variants
 * are deemed to be excluded", so an exclusion without it offers nothing).
 */
function offerOf(selection: ProductSelection, productId: string): VariantOffer | undefined {
  const assignment = assignmentOf(selection, productId);
  if (selection.mode === 'Individual') {
    if (assignment === undefined) return undefined;
    const { variantSelection } = assignment;
    return (sku) => selectsSku(variantSelection, sku);
  }
  if (assignment === undefined) return everyVariant;
  const excluded = assignment.variantExclusion?.skus;
  if (excluded === undefined) return undefined;
  return (sku) => sku === undefined || !excluded.includes(sku);
}

/** A variant is offered when any of the offering selections offers it. */
function anyOf(offers: readonly VariantOffer[]): VariantOffer | undefined {
  if (offers.length === 0) return undefined;
  return (sku) => offers.some((offer) => offer(sku));
}

/**
 * The rule of the reference's Store.productSelections, product by product:
 * - no Product Selections: every product;
 * - none active: every product if all are `IndividualExclusion`, none if one is `Individual`;
 * - otherwise only the active ones count: a product any of them offers, with the variants any of
 *   them offers (the union: each active selection adds its part of the assortment).
 * `selections` holds the documents of the settings' selections, by id.
 */
export function assortment(settings: readonly ProductSelectionSetting[], selections: ReadonlyMap<string, ProductSelection>): Assortment {
  if (settings.length === 0) return everyProduct;
  const active = settings.filter((setting) => setting.active);
  if (active.length === 0) {
    const individual = settings.some((setting) => selections.get(setting.productSelection.id)?.mode === 'Individual');
    return individual ? noProduct : everyProduct;
  }
  const offering = active.map((setting) => selections.get(setting.productSelection.id)).filter((selection) => selection !== undefined);
  return (productId) => anyOf(offering.map((selection) => offerOf(selection, productId)).filter((offer) => offer !== undefined));
}

/** The ids of the Store's active Product Selections. */
export function activeSelectionIds(store: Store): string[] {
  return (store.productSelections ?? []).filter((setting) => setting.active).map((setting) => setting.productSelection.id);
}

/** The Store's assortment, its selections read from the project. */
export async function storeAssortment(documents: DocumentStore, projectKey: string, store: Store): Promise<Assortment> {
  const settings = store.productSelections ?? [];
  if (settings.length === 0) return everyProduct;
  const ids = settings.map((setting) => setting.productSelection.id);
  return assortment(settings, await documents.getMany<ProductSelection>(projectKey, PRODUCT_SELECTION_TYPE_ID, ids));
}
