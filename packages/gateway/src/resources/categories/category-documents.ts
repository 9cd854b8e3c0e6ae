import type { DocumentStore } from '@herald/store';
import { referencedResourceNotFound } from '../shared/references.js';
import { withWriteFollowers } from '../shared/write-followers.js';
import { CATEGORY_TYPE_ID, type Category } from './category.js';
import { assertSlugUnique } from './fields.js';
import { deleteDescendants, lockCategoryTree, placementBelow, propagatePlacement, samePlacement } from './tree.js';

/** Same slug in the same locales: nothing to check again. */
function sameSlug(a: Category, b: Category): boolean {
  const entries = (category: Category) => JSON.stringify(Object.entries(category.slug).sort(([x], [y]) => x.localeCompare(y)));
  return entries(a) === entries(b);
}

/**
 * The document store the category routes write through: every write runs in one transaction
 * under the project's category tree lock (tree.ts `lockCategoryTree`), with what must commit with it.
 * - create: the parent read again under the lock (it may have moved or gone since the draft was
 *   checked), so `ancestors` is the committed path; the slug checked unique per locale;
 * - update: under a row lock instead of the template's optimistic write, so the actions (the cycle
 *   check of changeParent) read the tree as committed; a new slug checked unique; after a move,
 *   every descendant's `ancestors` follows in the same transaction;
 * - delete: the subcategories go with the Category.
 */
export function categoryDocuments(documents: DocumentStore): DocumentStore {
  return withWriteFollowers<Category>(documents, {
    lock: lockCategoryTree,
    async beforeCreate({ ctx, tx, joined }, draft) {
      await assertSlugUnique(tx, ctx.projectKey, draft.slug, draft.id);
      if (draft.parent === undefined) return { fields: draft };
      const parent = await joined.get<Category>(ctx.projectKey, CATEGORY_TYPE_ID, { id: draft.parent.id });
      if (parent === undefined) throw referencedResourceNotFound(CATEGORY_TYPE_ID, { id: draft.parent.id });
      return { fields: { ...draft, ...placementBelow(parent) } };
    },
    async alongsideUpdate({ ctx, tx, joined }, before, after) {
      if (!sameSlug(before, after)) await assertSlugUnique(tx, ctx.projectKey, after.slug, after.id);
      if (!samePlacement(before, after)) await propagatePlacement(joined, ctx, after);
    },
    afterDelete: ({ ctx, joined }, deleted) => deleteDescendants(joined, ctx, deleted),
  });
}
