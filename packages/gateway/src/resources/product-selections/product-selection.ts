import type { BaseResource, CustomFields, LocalizedString, Reference } from '@herald/model';

export const PRODUCT_SELECTION_TYPE_ID = 'product-selection';

/** The reference's ProductSelectionMode (types/product-selection/ProductSelectionMode.raml). */
export const SELECTION_MODES = ['Individual', 'IndividualExclusion'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** The reference's ProductVariantSelectionTypeEnum; `inclusion`/`exclusion` are the deprecated names. */
export const VARIANT_SELECTION_TYPES = ['includeOnly', 'includeAllExcept', 'inclusion', 'exclusion'] as const;
export type VariantSelectionType = (typeof VARIANT_SELECTION_TYPES)[number];

/** The reference's ProductVariantSelection: which SKUs of a product an `Individual` selection includes. */
export interface VariantSelection {
  type: VariantSelectionType;
  skus: string[];
}

/** The reference's ProductVariantExclusion: which SKUs of a product an `IndividualExclusion` selection excludes. */
export interface VariantExclusion {
  skus: string[];
}

/**
 * One product of the selection as Herald stores it: the reference's AssignedProductReference with
 * the assignment's `createdAt` (AssignedProductSelection shows it). A selection holds at most one
 * assignment per product.
 */
export interface Assignment {
  product: Reference<'product'>;
  variantSelection?: VariantSelection;
  variantExclusion?: VariantExclusion;
  createdAt: string;
}

/**
 * The reference's ProductSelection. Its assignments are stored inside the document
 * (`assignments`, never shown: the reference serves them at `/product-selections/{id}/products`),
 * so that an assignment changes with the selection's version and its messages.
 */
export interface ProductSelection extends BaseResource {
  key?: string;
  name: LocalizedString;
  productCount: number;
  mode: SelectionMode;
  custom?: CustomFields;
  assignments: Assignment[];
}

/** The ProductSelection as the API shows it (reference type, without the stored assignments). */
export function presentSelection(selection: ProductSelection): Omit<ProductSelection, 'assignments'> {
  const { assignments: _assignments, ...shown } = selection;
  return shown;
}

/** The assignment of `productId`, if the selection has one. */
export function assignmentOf(selection: ProductSelection, productId: string): Assignment | undefined {
  return selection.assignments.find((assignment) => assignment.product.id === productId);
}
