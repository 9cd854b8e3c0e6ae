import { duplicateField, invalidInput, invalidOperation } from '@herald/model';
import { attributeValueError, loadNestedAttributeTypes, PRODUCT_TYPE_TYPE_ID, type AttributeDefinition, type ProductType } from '../product-types/index.js';
import type { RequestContext } from '../shared/context.js';
import { loadReferenced } from '../shared/references.js';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { optionalKey } from '../shared/validation.js';
import { allVariants, type Product, type ProductVariant } from './product.js';
import { dataToChange, isStaged, variantIn } from './staging.js';
import { assertAttributeConstraints } from './constraints.js';
import { clearDefaultVariantIfRemoved } from './default-variant.js';
import { assertVariantIdentifiersDistinct, definitionsAt, sku, variantFromDraft } from './variants.js';

type Load = Pick<RequestContext, 'load'>;

function productTypeOf(product: Product, ctx: Load): Promise<ProductType> {
  return loadReferenced<ProductType>(ctx.load, PRODUCT_TYPE_TYPE_ID, { id: product.productType.id });
}

/** The next variant id: ids are never reused while either data version holds them. */
function nextVariantId(product: Product): number {
  const ids = [product.masterData.current, product.masterData.staged].flatMap(allVariants).map(({ id }) => id);
  return Math.max(...ids) + 1;
}

/**
 * How to set the attribute on one holder (a variant, or the ProductData for Product-level
 * attributes), and the definitions of that level whose constraints then hold.
 */
interface AttributeSetter {
  apply: (holder: Pick<ProductVariant, 'attributes'>) => void;
  definitions: AttributeDefinition[];
}

/**
 * ProductSetAttributeAction / ProductSetProductAttributeAction `value`: checked against the
 * ProductType's definition of that `level` (AttributeDefinition.level); absent removes the attribute.
 */
async function attributeSetter(product: Product, action: UpdateAction, ctx: Load, level: AttributeDefinition['level'] = 'Variant'): Promise<AttributeSetter> {
  if (typeof action.name !== 'string') throw invalidInput("'name' must be an attribute name.", { field: 'name' });
  const { name, value } = action as UpdateAction & { name: string };
  const productType = await productTypeOf(product, ctx);
  const definitions = definitionsAt(productType, level);
  const definition = definitions.find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw invalidInput(`The product type defines no ${level}-level attribute '${name}'.`, { field: 'name', invalidValue: name });
  }
  if (value === undefined || value === null) {
    if (definition.isRequired) throw invalidInput(`The attribute '${name}' is required.`, { field: 'value' });
    const apply = (holder: Pick<ProductVariant, 'attributes'>) => {
      holder.attributes = holder.attributes.filter((attribute) => attribute.name !== name);
    };
    return { apply, definitions };
  }
  const problem = attributeValueError(definition, value, await loadNestedAttributeTypes(productType.attributes, ctx.load));
  if (problem !== undefined) throw invalidInput(`'value' ${problem.message}.`, { field: 'value' });
  const apply = (holder: Pick<ProductVariant, 'attributes'>) => {
    const existing = holder.attributes.find((attribute) => attribute.name === name);
    if (existing === undefined) holder.attributes.push({ name, value: structuredClone(value) });
    else existing.value = structuredClone(value);
  };
  return { apply, definitions };
}

/** ProductSetSkuAction {variantId, sku?, staged}: the variant by `variantId` only; absent removes the SKU. */
function setVariantSku(product: Product, action: UpdateAction, staged: boolean): void {
  if (typeof action.variantId !== 'number') throw invalidInput("'variantId' must be a variant id.", { field: 'variantId' });
  const next = sku(action.sku, 'sku');
  for (const data of dataToChange(product, staged)) {
    const variant = variantIn(data, { action: 'setSku', variantId: action.variantId });
    if (next === undefined) delete variant.sku;
    else variant.sku = next;
    assertVariantIdentifiersDistinct(allVariants(data));
  }
}

/**
 * Variant and attribute actions (reference ProductAddVariantAction, …RemoveVariant…, …SetSku…,
 * ProductLegacySetSkuAction, …SetAttribute…, …SetProductAttribute…, …ChangeMasterVariant…). SKUs taken by another product are refused by the store's claims (uniqueness.ts).
 */
export const variantActions: ActionHandlers<Product> = {
  async addVariant(product, action, { ctx }) {
    const staged = isStaged(action);
    const productType = await productTypeOf(product, ctx);
    const variant = await variantFromDraft(action, 'variant', nextVariantId(product), productType, ctx);
    for (const data of dataToChange(product, staged)) {
      data.variants.push(structuredClone(variant));
      assertVariantIdentifiersDistinct(allVariants(data));
      assertAttributeConstraints(data, definitionsAt(productType, 'Variant'));
    }
    return [{ type: 'ProductVariantAdded', variant, staged }];
  },
  removeVariant(product, action) {
    const staged = isStaged(action);
    const selection = { ...action, variantId: action.id ?? action.variantId };
    let removed: ProductVariant | undefined;
    for (const data of dataToChange(product, staged)) {
      const variant = variantIn(data, selection);
      if (variant.id === data.masterVariant.id) throw invalidOperation('The master variant cannot be removed; change the master variant first.');
      data.variants = data.variants.filter(({ id }) => id !== variant.id);
      clearDefaultVariantIfRemoved(data, variant);
      removed ??= variant;
    }
    const removedImageUrls = removed === undefined ? [] : removed.images.map(({ url }) => url);
    return [{ type: 'ProductVariantDeleted', variant: removed, removedImageUrls, staged }];
  },
  setSku(product, action) {
    setVariantSku(product, action, isStaged(action));
  },
  /**
   * ProductLegacySetSkuAction (deprecated, `setSKU`): {variantId, sku?} without `staged`; it
   * predates staged SKU changes, so it changes the SKU in both data versions. No message in the reference.
   */
  setSKU(product, action) {
    setVariantSku(product, action, false);
  },
  /** ProductSetProductVariantKeyAction: absent removes; a key of another variant of the product is a DuplicateField. */
  setProductVariantKey(product, action) {
    const key = optionalKey(action.key);
    for (const data of dataToChange(product, isStaged(action))) {
      const variant = variantIn(data, action);
      if (key === undefined) {
        delete variant.key;
        continue;
      }
      if (allVariants(data).some((other) => other.id !== variant.id && other.key === key)) throw duplicateField('key', key);
      variant.key = key;
    }
  },
  /** ProductRevertStagedVariantChangesAction: the staged variant becomes the current one (both data must have it). No message. */
  revertStagedVariantChanges(product, action) {
    if (typeof action.variantId !== 'number') throw invalidInput("'variantId' must be a variant id.", { field: 'variantId' });
    const { staged, current } = product.masterData;
    const published = variantIn(current, { action: 'revertStagedVariantChanges', variantId: action.variantId });
    const revert = (variant: ProductVariant) => (variant.id === published.id ? structuredClone(published) : variant);
    variantIn(staged, { action: 'revertStagedVariantChanges', variantId: action.variantId });
    staged.masterVariant = revert(staged.masterVariant);
    staged.variants = staged.variants.map(revert);
  },
  async setAttribute(product, action, { ctx }) {
    const { apply, definitions } = await attributeSetter(product, action, ctx);
    for (const data of dataToChange(product, isStaged(action))) {
      apply(variantIn(data, action));
      assertAttributeConstraints(data, definitions);
    }
  },
  async setAttributeInAllVariants(product, action, { ctx }) {
    const { apply, definitions } = await attributeSetter(product, action, ctx);
    for (const data of dataToChange(product, isStaged(action))) {
      allVariants(data).forEach(apply);
      assertAttributeConstraints(data, definitions);
    }
  },
  /** ProductSetProductAttributeAction: a Product-level attribute (ProductData.attributes); no message in the reference. */
  async setProductAttribute(product, action, { ctx }) {
    const { apply } = await attributeSetter(product, action, ctx, 'Product');
    for (const data of dataToChange(product, isStaged(action))) apply(data);
  },
  changeMasterVariant(product, action) {
    for (const data of dataToChange(product, isStaged(action))) {
      const chosen = variantIn(data, action);
      if (chosen.id === data.masterVariant.id) continue;
      data.variants = [data.masterVariant, ...data.variants.filter(({ id }) => id !== chosen.id)];
      data.masterVariant = chosen;
    }
  },
};
