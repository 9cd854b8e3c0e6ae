import { isDeepStrictEqual } from 'node:util';
import { invalidInput, invalidOperation, requiredField, type LocalizedString } from '@herald/model';
import { nonEmptyLocalizedString, optionalLocalizedString, orderHint, slug } from '../categories/fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { optionalKey } from '../shared/validation.js';
import { referenceTo, searchKeywords } from './draft.js';
import { allVariants, type Product, type ProductData } from './product.js';
import { projectionOf } from './projection.js';
import { dataToChange, isStaged } from './staging.js';

type OptionalText = 'description' | 'metaTitle' | 'metaDescription' | 'metaKeywords';

/** ProductSet{Description,MetaTitle,…}Action: absent removes; `staged` as every data action. */
function setOptionalText(field: OptionalText): ActionHandler<Product> {
  return (product, action) => {
    const value: LocalizedString | undefined = optionalLocalizedString(action[field], field);
    for (const data of dataToChange(product, isStaged(action))) {
      if (value === undefined) delete data[field];
      else data[field] = structuredClone(value);
    }
  };
}

function imageUrls(data: ProductData): string[] {
  return allVariants(data).flatMap(({ images }) => images.map(({ url }) => url));
}

/** Publishing and reverting (reference ProductPublishAction, …Unpublish…, …RevertStagedChanges…). */
const publishingActions: ActionHandlers<Product> = {
  publish(product) {
    product.masterData.current = structuredClone(product.masterData.staged);
    product.masterData.published = true;
    product.masterData.hasStagedChanges = false;
    // The message describes the product as this update leaves it: one version more (one per request).
    const productProjection = { ...projectionOf(product, { staged: false }), version: product.version + 1 };
    return [{ type: 'ProductPublished', removedImageUrls: [], productProjection, scope: 'All' }];
  },
  unpublish(product) {
    if (!product.masterData.published) throw invalidOperation('The product is not published.');
    product.masterData.published = false;
    return [{ type: 'ProductUnpublished' }];
  },
  /** ProductRevertedStagedChanges.removedImageUrls: the staged images the current data does not have. */
  revertStagedChanges(product) {
    const kept = new Set(imageUrls(product.masterData.current));
    const removedImageUrls = imageUrls(product.masterData.staged).filter((url) => !kept.has(url));
    product.masterData.staged = structuredClone(product.masterData.current);
    return [{ type: 'ProductRevertedStagedChanges', removedImageUrls }];
  },
};

/** Category membership (reference ProductAddToCategoryAction, …RemoveFromCategory…). */
const categoryActions: ActionHandlers<Product> = {
  async addToCategory(product, action, { ctx }) {
    const staged = isStaged(action);
    const category = await referenceTo(action.category, 'category', 'category', ctx);
    const hint = action.orderHint === undefined || action.orderHint === null ? undefined : orderHint(action.orderHint);
    for (const data of dataToChange(product, staged)) {
      if (data.categories.some(({ id }) => id === category.id)) throw invalidOperation(`The product is in the category '${category.id}' already.`);
      data.categories.push(category);
      if (hint !== undefined) data.categoryOrderHints = { ...data.categoryOrderHints, [category.id]: hint };
    }
    return [{ type: 'ProductAddedToCategory', category, staged }];
  },
  async removeFromCategory(product, action, { ctx }) {
    const staged = isStaged(action);
    const category = await referenceTo(action.category, 'category', 'category', ctx);
    for (const data of dataToChange(product, staged)) {
      if (!data.categories.some(({ id }) => id === category.id)) throw invalidOperation(`The product is not in the category '${category.id}'.`);
      data.categories = data.categories.filter(({ id }) => id !== category.id);
      if (data.categoryOrderHints !== undefined) delete data.categoryOrderHints[category.id];
    }
    return [{ type: 'ProductRemovedFromCategory', category, staged }];
  },
  /** ProductSetCategoryOrderHintAction: only for a category the product is in; absent orderHint removes. No message in the reference. */
  setCategoryOrderHint(product, action) {
    if (typeof action.categoryId !== 'string') throw invalidInput("'categoryId' must be a string.", { field: 'categoryId' });
    const categoryId = action.categoryId;
    const hint = action.orderHint === undefined || action.orderHint === null ? undefined : orderHint(action.orderHint);
    for (const data of dataToChange(product, isStaged(action))) {
      if (!data.categories.some(({ id }) => id === categoryId)) throw invalidOperation(`The product is not in the category '${categoryId}'.`);
      if (hint !== undefined) data.categoryOrderHints = { ...data.categoryOrderHints, [categoryId]: hint };
      else if (data.categoryOrderHints !== undefined) delete data.categoryOrderHints[categoryId];
    }
  },
};

/** Names, slug, texts and the product's own fields. */
const productFieldActions: ActionHandlers<Product> = {
  changeName(product, action) {
    const name = nonEmptyLocalizedString(action.name, 'name');
    for (const data of dataToChange(product, isStaged(action))) data.name = structuredClone(name);
  },
  /** ProductChangeSlugAction → ProductSlugChanged with the staged slug it replaced; the same slug changes nothing. */
  changeSlug(product, action) {
    const next = slug(action.slug);
    const oldSlug = product.masterData.staged.slug;
    if (isDeepStrictEqual(next, oldSlug) && isStaged(action)) return [];
    for (const data of dataToChange(product, isStaged(action))) data.slug = structuredClone(next);
    return [{ type: 'ProductSlugChanged', slug: next, oldSlug }];
  },
  setKey(product, action) {
    const key = optionalKey(action.key);
    if (key === undefined) delete product.key;
    else product.key = key;
  },
  setDescription: setOptionalText('description'),
  setMetaTitle: setOptionalText('metaTitle'),
  setMetaDescription: setOptionalText('metaDescription'),
  setMetaKeywords: setOptionalText('metaKeywords'),
  /** ProductSetSearchKeywordsAction: `searchKeywords` required, validated as in the draft. */
  setSearchKeywords(product, action) {
    if (action.searchKeywords === undefined || action.searchKeywords === null) throw requiredField('searchKeywords');
    const keywords = searchKeywords(action.searchKeywords);
    for (const data of dataToChange(product, isStaged(action))) data.searchKeywords = structuredClone(keywords);
  },
  /** ProductSetPriceModeAction: absent is the default `Embedded`; ProductPriceModeSet.to. Not staged. */
  setPriceMode(product, action) {
    const mode = action.priceMode ?? 'Embedded';
    if (mode !== 'Embedded' && mode !== 'Standalone') {
      throw invalidInput("'priceMode' must be Embedded or Standalone.", { field: 'priceMode', invalidValue: mode });
    }
    product.priceMode = mode;
    return [{ type: 'ProductPriceModeSet', to: mode }];
  },
  async setTaxCategory(product, action, { ctx }) {
    if (action.taxCategory === undefined || action.taxCategory === null) delete product.taxCategory;
    else product.taxCategory = await referenceTo(action.taxCategory, 'taxCategory', 'tax-category', ctx);
  },
};

/** Slugs taken by another product are refused by the store's claims (uniqueness.ts). */
export const dataActions: ActionHandlers<Product> = { ...publishingActions, ...categoryActions, ...productFieldActions };

/** ProductTransitionStateAction.force: "switches the state without checking transitions". */
export function forceFlag(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidInput("'force' must be a boolean.", { field: 'force' });
  return value;
}
