import { invalidInput } from '@herald/model';
import type { DocumentStore, Queryable, WriteContext } from '@herald/store';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { CATEGORY_TYPE_ID, categoryReference, type Category, type CategoryReference } from './category.js';
import { everyMatch } from '../shared/every-match.js';

/** Where a Category sits in its tree: its `parent` and `ancestors` (root first, direct parent last). */
export type Placement = Pick<Category, 'parent' | 'ancestors'>;

export const ROOT: Placement = { ancestors: [] };

/**
 * The namespace of the per-project category tree lock (first key of the two-key advisory lock; the
 * second is the hash of the project key). Distinct from the subscription-limit lock's namespace.
 */
const CATEGORY_TREE_LOCK = 7_042_028;

/**
 * Serialises the category writes of a project until the transaction ends, so that each sees the
 * tree (and the slugs) as the previous one committed it: two moves that would together make a
 * cycle are checked one after the other, a child is never created below a parent that is being
 * moved or deleted, and slugs stay unique per locale. Taken before any row lock, so it cannot
 * deadlock with one.
 */
export async function lockCategoryTree(tx: Queryable, projectKey: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [CATEGORY_TREE_LOCK, projectKey]);
}

/** Below `parent`: its ancestors, then itself. */
export function placementBelow(parent: Category): Placement {
  const reference = categoryReference(parent.id);
  return { parent: reference, ancestors: [...parent.ancestors, reference] };
}

/** The parent named by a CategoryResourceIdentifier (by id or key); 400 ReferencedResourceNotFound if missing. */
export function loadParent(load: Load, value: unknown, field: string): Promise<Category> {
  return loadReferenced<Category>(load, CATEGORY_TYPE_ID, identifierLocator(value, field, CATEGORY_TYPE_ID));
}

/** A Category cannot be below itself: the new parent must be neither it nor one of its descendants (InvalidInput). */
export function assertNotBelowItself(category: Pick<Category, 'id'>, parent: Category): void {
  if (parent.id === category.id || parent.ancestors.some((ancestor) => ancestor.id === category.id)) {
    throw invalidInput(`The Category '${parent.id}' cannot be the parent of '${category.id}': it is the Category itself or one of its descendants.`, {
      field: 'parent',
      invalidValue: categoryReference(parent.id),
    });
  }
}

export function samePlacement(a: Placement, b: Placement): boolean {
  const ids = (references: readonly CategoryReference[]) => references.map((reference) => reference.id).join('\u0000');
  return a.parent?.id === b.parent?.id && ids(a.ancestors) === ids(b.ancestors);
}

export function place(category: Category, placement: Placement): void {
  if (placement.parent === undefined) delete category.parent;
  else category.parent = placement.parent;
  category.ancestors = placement.ancestors;
}

/** Every Category below `category` (those whose `ancestors` name it), in id order. */
export function descendantsOf(store: DocumentStore, projectKey: string, category: Pick<Category, 'id'>): Promise<Category[]> {
  return everyMatch<Category>(store, projectKey, CATEGORY_TYPE_ID, 'ancestors(id = :category)', { category: [category.id] });
}

/**
 * After `moved` got a new parent, every descendant gets the ancestors that follow from it, in the
 * same transaction: each a versioned update with its own ResourceUpdated change notification and
 * no message (the reference has none for it).
 */
export async function propagatePlacement(store: DocumentStore, write: WriteContext, moved: Category): Promise<void> {
  const movedReference = categoryReference(moved.id);
  for (const descendant of await descendantsOf(store, write.projectKey, moved)) {
    const below = descendant.ancestors.findIndex((ancestor) => ancestor.id === moved.id);
    const ancestors = [...moved.ancestors, movedReference, ...descendant.ancestors.slice(below + 1)];
    await store.update<Category>(write, CATEGORY_TYPE_ID, { id: descendant.id }, descendant.version, (current) => ({
      doc: { ...current, ancestors },
    }));
  }
}

/**
 * Deleting a Category deletes its subcategories with it. The reference's RAML is silent; the
 * platform deletes the children too (commercetools-sync-java#79 warns of it), and either way no
 * Category may stay whose `parent` and `ancestors` name a deleted one. Deepest first, each with its
 * own ResourceDeleted change notification (no message: the reference has no CategoryDeleted), in
 * the parent's transaction.
 */
export async function deleteDescendants(store: DocumentStore, write: WriteContext, category: Category): Promise<void> {
  const descendants = await descendantsOf(store, write.projectKey, category);
  descendants.sort((a, b) => b.ancestors.length - a.ancestors.length);
  for (const descendant of descendants) {
    await store.delete<Category>(write, CATEGORY_TYPE_ID, { id: descendant.id }, descendant.version);
  }
}
