import type { BaseResource, MessagePayload } from '@herald/model';
import type { DeleteOptions, DocumentStore, Locator, ServerFields, TransactionReader, UpdateOptions, UpdateResult, WriteContext } from '@herald/store';
import { referencedResourceNotFound } from '../shared/references.js';
import { CATEGORY_TYPE_ID, type Category } from './category.js';
import { assertSlugUnique } from './fields.js';
import { deleteDescendants, lockCategoryTree, placementBelow, propagatePlacement, samePlacement } from './tree.js';

type CategoryFields = Omit<Category, ServerFields> & { id?: string };

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
  const overrides: Pick<DocumentStore, 'create' | 'update' | 'delete'> = {
    create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ): Promise<D> {
      return documents.db.transaction(async (tx) => {
        await lockCategoryTree(tx, ctx.projectKey);
        const joined = documents.within(tx);
        const draft = fields as unknown as CategoryFields;
        await assertSlugUnique(tx, ctx.projectKey, draft.slug, draft.id);
        let placed = draft;
        if (draft.parent !== undefined) {
          const parent = await joined.get<Category>(ctx.projectKey, CATEGORY_TYPE_ID, { id: draft.parent.id });
          if (parent === undefined) throw referencedResourceNotFound(CATEGORY_TYPE_ID, { id: draft.parent.id });
          placed = { ...draft, ...placementBelow(parent) };
        }
        return joined.create<D>(ctx, typeId, placed as unknown as Omit<D, ServerFields>, messages);
      });
    },

    update<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      locator: Locator,
      expectedVersion: number,
      apply: (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>,
      options: UpdateOptions<D> = {},
    ): Promise<D> {
      return documents.db.transaction(async (tx) => {
        await lockCategoryTree(tx, ctx.projectKey);
        const joined = documents.within(tx);
        return joined.update<D>(ctx, typeId, locator, expectedVersion, apply, {
          alongside: async (inTransaction, previous, next) => {
            await options.alongside?.(inTransaction, previous, next);
            const [before, after] = [previous as unknown as Category, next as unknown as Category];
            if (!sameSlug(before, after)) await assertSlugUnique(inTransaction, ctx.projectKey, after.slug, after.id);
            if (!samePlacement(before, after)) await propagatePlacement(joined, ctx, after);
          },
        });
      });
    },

    delete<D extends BaseResource>(ctx: WriteContext, typeId: string, locator: Locator, expectedVersion: number, options?: DeleteOptions<D>): Promise<D> {
      return documents.db.transaction(async (tx) => {
        await lockCategoryTree(tx, ctx.projectKey);
        const joined = documents.within(tx);
        const deleted = await joined.delete<D>(ctx, typeId, locator, expectedVersion, options);
        await deleteDescendants(joined, ctx, deleted as unknown as Category);
        return deleted;
      });
    },
  };
  return Object.assign(Object.create(documents) as DocumentStore, overrides);
}
