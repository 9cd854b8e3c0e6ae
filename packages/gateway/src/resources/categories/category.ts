import type { BaseResource, CustomFields, LocalizedString, Reference } from '@herald/model';
import type { Asset } from '../shared/assets.js';

export const CATEGORY_TYPE_ID = 'category';

export type CategoryReference = Reference<'category'>;

/**
 * The reference's Category (types/category/Category.raml). `ancestors` is computed by Herald, never
 * sent by clients: the path from the root down to the direct parent (root first).
 */
export interface Category extends BaseResource {
  key?: string;
  name: LocalizedString;
  /** Unique per locale in the project (CategoryDraft.slug). */
  slug: LocalizedString;
  description?: LocalizedString;
  parent?: CategoryReference;
  ancestors: CategoryReference[];
  orderHint: string;
  externalId?: string;
  metaTitle?: LocalizedString;
  metaDescription?: LocalizedString;
  metaKeywords?: LocalizedString;
  custom?: CustomFields;
  assets: Asset[];
}

export function categoryReference(id: string): CategoryReference {
  return { typeId: CATEGORY_TYPE_ID, id };
}
