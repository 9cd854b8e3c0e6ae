import { isDeepStrictEqual } from 'node:util';
import { ApiError, invalidOperation, type Clock, type MessagePayload, type Reference } from '@herald/model';
import type { Product } from '../products/product.js';
import { PRODUCT_TYPE_ID } from '../products/product.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { assignmentOf, type Assignment, type ProductSelection, type SelectionMode, type VariantExclusion, type VariantSelection } from './product-selection.js';
import { variantExclusion, variantSelection } from './variant-selection.js';

/*
 * The reference's assignment actions (types/product-selection/updates): addProduct and
 * setVariantSelection for `Individual` selections, excludeProduct and setVariantExclusion for
 * `IndividualExclusion` ones, removeProduct for both. Each names a Product by ResourceIdentifier
 * (400 ReferencedResourceNotFound when it does not exist).
 */

async function productOf(load: Load, value: unknown): Promise<{ product: Product; reference: Reference<'product'> }> {
  const product = await loadReferenced<Product>(load, PRODUCT_TYPE_ID, identifierLocator(value, 'product', PRODUCT_TYPE_ID));
  return { product, reference: { typeId: 'product', id: product.id } };
}

/** Which mode each action needs; the other mode's selections refuse it (400 InvalidOperation). */
function assertMode(selection: ProductSelection, mode: SelectionMode, action: string): void {
  if (selection.mode !== mode) {
    throw invalidOperation(`The update action '${action}' applies to Product Selections of mode ${mode}; this one is ${selection.mode}.`);
  }
}

/** The reference's ProductPresentWithDifferentVariantSelection (addProduct, excludeProduct). */
function presentWithDifferentVariantSelection(product: Reference<'product'>, existing: VariantSelection | VariantExclusion | undefined): ApiError {
  return new ApiError(400, {
    code: 'ProductPresentWithDifferentVariantSelection',
    message: `Product is already present with the following different variant selection: ${JSON.stringify(existing ?? null)}.`,
    product,
    ...(existing === undefined ? {} : { existingVariantSelection: existing }),
  });
}

/** The reference's ProductAssignmentMissing, with the message it names for each mode. */
function assignmentMissing(selection: ProductSelection, product: Reference<'product'>): ApiError {
  const message =
    selection.mode === 'Individual'
      ? 'A Product Variant Selection can only be set for a Product that has previously been added to the Product Selection.'
      : 'A Variant Exclusion can only be set for a Product that has previously been added to the Product Selection of type Individual Exclusion.';
  return new ApiError(400, { code: 'ProductAssignmentMissing', message, product });
}

function setSelectionCount(selection: ProductSelection, assignments: Assignment[]): void {
  selection.assignments = assignments;
  selection.productCount = assignments.length;
}

type Variants = 'variantSelection' | 'variantExclusion';

interface AssignRule {
  mode: SelectionMode;
  field: Variants;
  message: 'ProductSelectionProductAdded' | 'ProductSelectionProductExcluded';
}

/**
 * addProduct / excludeProduct: assigns the product with its variants. Assigned already with the
 * same variants: no effect (no message); with different ones: ProductPresentWithDifferentVariantSelection.
 */
function assign(rule: AssignRule, clock: Clock): ActionHandler<ProductSelection> {
  return async (selection, action, { reader }): Promise<MessagePayload[]> => {
    assertMode(selection, rule.mode, action.action);
    const { product, reference } = await productOf(reader.get, action.product);
    const variants =
      rule.field === 'variantSelection' ? variantSelection(action.variantSelection, product) : variantExclusion(action.variantExclusion, product);
    const existing = assignmentOf(selection, product.id);
    if (existing !== undefined) {
      if (isDeepStrictEqual(existing[rule.field], variants)) return [];
      throw presentWithDifferentVariantSelection(reference, existing[rule.field]);
    }
    const assignment: Assignment = { product: reference, ...(variants === undefined ? {} : { [rule.field]: variants }), createdAt: clock.now().toISOString() };
    setSelectionCount(selection, [...selection.assignments, assignment]);
    return [{ type: rule.message, product: reference, ...(variants === undefined ? {} : { [rule.field]: variants }) }];
  };
}

interface ChangeRule {
  mode: SelectionMode;
  field: Variants;
  message: 'ProductSelectionVariantSelectionChanged' | 'ProductSelectionVariantExclusionChanged';
  old: string;
  new: string;
}

/** setVariantSelection / setVariantExclusion: absent unsets ("Leave it empty to unset"). */
function changeVariants(rule: ChangeRule): ActionHandler<ProductSelection> {
  return async (selection, action, { reader }): Promise<MessagePayload[]> => {
    assertMode(selection, rule.mode, action.action);
    const { product, reference } = await productOf(reader.get, action.product);
    const existing = assignmentOf(selection, product.id);
    if (existing === undefined) throw assignmentMissing(selection, reference);
    const next = rule.field === 'variantSelection' ? variantSelection(action.variantSelection, product) : variantExclusion(action.variantExclusion, product);
    const previous = existing[rule.field];
    if (isDeepStrictEqual(previous, next)) return [];
    const { [rule.field]: _replaced, ...rest } = existing;
    const changed: Assignment = { ...rest, ...(next === undefined ? {} : { [rule.field]: next }) };
    setSelectionCount(
      selection,
      selection.assignments.map((assignment) => (assignment === existing ? changed : assignment)),
    );
    return [
      {
        type: rule.message,
        product: reference,
        ...(previous === undefined ? {} : { [rule.old]: previous }),
        ...(next === undefined ? {} : { [rule.new]: next }),
      },
    ];
  };
}

/**
 * The product removeProduct names: an existing product, or by id one that was deleted while
 * assigned (its assignment stays in the document until removed, see assignment-query.ts).
 */
async function removedProduct(selection: ProductSelection, load: Load, value: unknown): Promise<Reference<'product'>> {
  const locator = identifierLocator(value, 'product', PRODUCT_TYPE_ID);
  if ('id' in locator && (await load(PRODUCT_TYPE_ID, locator)) === undefined && assignmentOf(selection, locator.id) !== undefined) {
    return { typeId: 'product', id: locator.id };
  }
  return (await productOf(load, value)).reference;
}

/** removeProduct: a product that is not assigned changes nothing. */
const removeProduct: ActionHandler<ProductSelection> = async (selection, action, { reader }) => {
  const reference = await removedProduct(selection, reader.get, action.product);
  if (assignmentOf(selection, reference.id) === undefined) return [];
  setSelectionCount(
    selection,
    selection.assignments.filter((assignment) => assignment.product.id !== reference.id),
  );
  return [{ type: 'ProductSelectionProductRemoved', product: reference }];
};

export function assignmentActions(clock: Clock): ActionHandlers<ProductSelection> {
  return {
    addProduct: assign({ mode: 'Individual', field: 'variantSelection', message: 'ProductSelectionProductAdded' }, clock),
    excludeProduct: assign({ mode: 'IndividualExclusion', field: 'variantExclusion', message: 'ProductSelectionProductExcluded' }, clock),
    removeProduct,
    setVariantSelection: changeVariants({
      mode: 'Individual',
      field: 'variantSelection',
      message: 'ProductSelectionVariantSelectionChanged',
      old: 'oldVariantSelection',
      new: 'newVariantSelection',
    }),
    setVariantExclusion: changeVariants({
      mode: 'IndividualExclusion',
      field: 'variantExclusion',
      message: 'ProductSelectionVariantExclusionChanged',
      old: 'oldVariantExclusion',
      new: 'newVariantExclusion',
    }),
  };
}
