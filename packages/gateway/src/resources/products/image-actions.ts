import { invalidInput } from '@herald/model';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { optionalString } from '../shared/validation.js';
import { allVariants, type Image, type Product, type ProductVariant } from './product.js';
import { dataToChange, isStaged, variantIn } from './staging.js';
import { assertImageUrlFree, imageFromDraft } from './variants.js';

/** The action's `imageUrl` (ProductRemoveImageAction, …MoveImageToPosition…, …SetImageLabel…: required). */
function imageUrlOf(action: UpdateAction): string {
  if (typeof action.imageUrl !== 'string' || action.imageUrl === '') throw invalidInput("'imageUrl' must be the URL of an image.", { field: 'imageUrl' });
  return action.imageUrl;
}

/** The variant's image of `url` (Image.url: "must be unique within a single ProductVariant"). */
function imageIn(variant: ProductVariant, url: string): Image {
  const image = variant.images.find((candidate) => candidate.url === url);
  if (image === undefined) throw invalidInput(`The variant ${variant.id} has no image with the URL '${url}'.`, { field: 'imageUrl', invalidValue: url });
  return image;
}

/** ProductMoveImageToPositionAction.position: "between 0 and the total number of images minus 1". */
function imagePosition(value: unknown, count: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= count) {
    throw invalidInput(`'position' must be an integer from 0 to ${count - 1}.`, { field: 'position', invalidValue: value });
  }
  return value;
}

/** Every image URL of the product, in either data version (ProductDeleted.removedImageUrls). */
export function allImageUrls(product: Product): string[] {
  const { current, staged } = product.masterData;
  return [...new Set([current, staged].flatMap(allVariants).flatMap(({ images }) => images.map(({ url }) => url)))];
}

/**
 * The image actions of the reference (types/product/updates/ProductAddExternalImageAction,
 * …RemoveImage…, …MoveImageToPosition…, …SetImageLabel…): on the variant of `variantId` or `sku`,
 * in the staged data or, with `staged: false`, both. Only addExternalImage has a message
 * (ProductImageAdded); uploading image bytes (POST …/images) is not served.
 */
export const imageActions: ActionHandlers<Product> = {
  addExternalImage(product, action) {
    const staged = isStaged(action);
    const image = imageFromDraft(action.image, 'image');
    let variantId = 0;
    for (const data of dataToChange(product, staged)) {
      const variant = variantIn(data, action);
      assertImageUrlFree(variant, image.url);
      variant.images.push(structuredClone(image));
      variantId = variant.id;
    }
    return [{ type: 'ProductImageAdded', variantId, image, staged }];
  },
  removeImage(product, action) {
    const url = imageUrlOf(action);
    for (const data of dataToChange(product, isStaged(action))) {
      const variant = variantIn(data, action);
      const image = imageIn(variant, url);
      variant.images = variant.images.filter((known) => known !== image);
    }
  },
  moveImageToPosition(product, action) {
    const url = imageUrlOf(action);
    for (const data of dataToChange(product, isStaged(action))) {
      const variant = variantIn(data, action);
      const image = imageIn(variant, url);
      const position = imagePosition(action.position, variant.images.length);
      const others = variant.images.filter((known) => known !== image);
      variant.images = [...others.slice(0, position), image, ...others.slice(position)];
    }
  },
  setImageLabel(product, action) {
    const url = imageUrlOf(action);
    const label = optionalString(action.label, 'label', 256);
    for (const data of dataToChange(product, isStaged(action))) {
      const image = imageIn(variantIn(data, action), url);
      if (label === undefined) delete image.label;
      else image.label = label;
    }
  },
};
