import { isDeepStrictEqual } from 'node:util';
import type { LocalizedString } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandler } from '../shared/update-actions.js';
import { asDraft, optionalKey, optionalString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { assetActions } from './asset-actions.js';
import { assetsFromDraft } from '../shared/assets.js';
import { CATEGORY_TYPE_ID, type Category } from './category.js';
import { nonEmptyLocalizedString, optionalLocalizedString, orderHint, randomOrderHint, slug } from './fields.js';
import { assertNotBelowItself, loadParent, place, placementBelow, ROOT } from './tree.js';

/** The optional LocalizedString fields that a set action sets, or removes when its value is absent. */
type OptionalText = 'description' | 'metaTitle' | 'metaDescription' | 'metaKeywords';

function setOptionalText(field: OptionalText): ActionHandler<Category> {
  return (category, action) => {
    const value = optionalLocalizedString(action[field], field);
    if (value === undefined) delete category[field];
    else category[field] = value;
  };
}

function optionalTexts(draft: Record<string, unknown>): Partial<Record<OptionalText, LocalizedString>> {
  const texts: Partial<Record<OptionalText, LocalizedString>> = {};
  for (const field of ['description', 'metaTitle', 'metaDescription', 'metaKeywords'] as const) {
    const value = optionalLocalizedString(draft[field], field);
    if (value !== undefined) texts[field] = value;
  }
  return texts;
}

const EXTERNAL_ID_LENGTH = 256;

/**
 * `/{projectKey}/categories` (reference: resources/categories.raml, types/category). The reference's
 * messages are CategoryCreated and CategorySlugChanged only: every other change is a new version
 * with its change notification. Serve it with `categoryDocuments` (category-documents.ts), which
 * keeps the tree, the ancestors and the slugs consistent.
 */
export const categoryDefinition: ResourceDefinition<Category> = {
  typeId: CATEGORY_TYPE_ID,
  path: 'categories',
  // resources/categories.raml securedBy: either the products or the categories scope.
  scopes: { view: ['view_products', 'view_categories'], manage: ['manage_products', 'manage_categories'] },

  async fromDraft(body, ctx) {
    const draft = asDraft(body, 'CategoryDraft');
    const fields: Omit<Category, ServerFields> = {
      name: nonEmptyLocalizedString(draft.name, 'name'),
      slug: slug(draft.slug),
      ...optionalTexts(draft),
      ...ROOT,
      orderHint: draft.orderHint === undefined || draft.orderHint === null ? randomOrderHint() : orderHint(draft.orderHint),
      assets: await assetsFromDraft(draft.assets, 'assets', ctx),
    };
    const key = optionalKey(draft.key);
    if (key !== undefined) fields.key = key;
    const externalId = optionalString(draft.externalId, 'externalId', EXTERNAL_ID_LENGTH);
    if (externalId !== undefined) fields.externalId = externalId;
    if (draft.parent !== undefined && draft.parent !== null) {
      Object.assign(fields, placementBelow(await loadParent(ctx.load, draft.parent, 'parent')));
    }
    const custom = await customFromDraft(draft.custom, CATEGORY_TYPE_ID, ctx);
    if (custom !== undefined) fields.custom = custom;
    return fields;
  },

  createdMessages: (category) => [{ type: 'CategoryCreated', category }],

  actions: {
    changeName(category, action) {
      category.name = nonEmptyLocalizedString(action.name, 'name');
    },
    /** CategoryChangeSlugAction produces CategorySlugChanged (with the slug it replaced); the same slug changes nothing. */
    changeSlug(category, action) {
      const next = slug(action.slug);
      if (isDeepStrictEqual(next, category.slug)) return [];
      const oldSlug = category.slug;
      category.slug = next;
      return [{ type: 'CategorySlugChanged', slug: next, oldSlug }];
    },
    setDescription: setOptionalText('description'),
    setMetaTitle: setOptionalText('metaTitle'),
    setMetaDescription: setOptionalText('metaDescription'),
    setMetaKeywords: setOptionalText('metaKeywords'),
    /**
     * The parent is read in the update's transaction, under the category tree lock: a move that
     * another request committed first is seen, so two moves can never make a cycle together.
     */
    async changeParent(category, action, { ctx }) {
      const parent = await loadParent(ctx.load, action.parent, 'parent');
      assertNotBelowItself(category, parent);
      place(category, placementBelow(parent));
    },
    changeOrderHint(category, action) {
      category.orderHint = orderHint(action.orderHint);
    },
    setExternalId(category, action) {
      const externalId = optionalString(action.externalId, 'externalId', EXTERNAL_ID_LENGTH);
      if (externalId === undefined) delete category.externalId;
      else category.externalId = externalId;
    },
    setKey(category, action) {
      const key = optionalKey(action.key);
      if (key === undefined) delete category.key;
      else category.key = key;
    },
    // The reference has no custom field messages for Categories.
    ...customFieldActions<Category>(CATEGORY_TYPE_ID, { messages: false }),
    ...assetActions<Category>(),
  },
};
