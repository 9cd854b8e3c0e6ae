import type { DocumentStore } from '@herald/store';
import type { ProductSelectionSetting, Store } from '../stores/store.js';
import { assignmentOf, PRODUCT_SELECTION_TYPE_ID, type ProductSelection } from './product-selection.js';

/** Whether a product (by id) is available in a Store. */
export type Assortment = (productId: string) => boolean;

const everyProduct: Assortment = () => true;
const noProduct: Assortment = () => false;

/** Whether the selection makes the product available: included (Individual) or not wholly excluded (IndividualExclusion). */
function offers(selection: ProductSelection, productId: string): boolean {
  const assignment = assignmentOf(selection, productId);
  if (selection.mode === 'Individual') return assignment !== undefined;
  // "In absence of [variantExclusion], all Variants are deemed to be excluded" (AssignedProductReference).
  return assignment === undefined || assignment.variantExclusion !== undefined;
}

/**
 * The rule of the reference's Store.productSelections, product by product:
 * - no Product Selections: every product;
 * - none active: every product if all are `IndividualExclusion`, none if one is `Individual`;
 * - otherwise only the active ones count: a product any of them offers.
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
  return (productId) => offering.some((selection) => offers(selection, productId));
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
