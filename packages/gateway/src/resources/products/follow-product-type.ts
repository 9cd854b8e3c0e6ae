import { isDeepStrictEqual } from 'node:util';
import type { DocumentStore, Queryable, WriteContext } from '@herald/store';
import type { UpdateAction } from '../shared/update-actions.js';
import { productTypesNesting } from '../product-types/nested-types.js';
import { attributeChangesOf, changedAttributes, nestedAttributeChanges, type AttributeChange } from './attribute-changes.js';
import { allVariants, PRODUCT_TYPE_ID, type Attribute, type Product, type ProductData } from './product.js';

/** Products stored before Product-level attributes (or written by hand) may lack an `attributes` array: nothing to change there. */
function changeHolder(holder: { attributes?: Attribute[] }, changes: readonly AttributeChange[]): void {
  if (Array.isArray(holder.attributes)) holder.attributes = changedAttributes(holder.attributes, changes);
}

function changeData(data: ProductData, changes: readonly AttributeChange[]): void {
  changeHolder(data, changes);
  for (const variant of allVariants(data)) changeHolder(variant, changes);
}

/**
 * The products of the type, row-locked until the ProductType update commits: a product written
 * concurrently is either committed before (and read here as it is now) or waits for this
 * transaction (and then answers 409 to its writer, who retries on the followed product) — never
 * a lost update. In id order, so that two follow-ups lock shared products in the same order.
 */
async function lockProductsOfType(tx: Queryable, projectKey: string, productTypeId: string): Promise<{ id: string; version: number }[]> {
  const found = await tx.query<{ id: string; version: number }>(
    `SELECT id, version FROM resources WHERE project_key = $1 AND type_id = $2 AND doc -> 'productType' ->> 'id' = $3 ORDER BY id FOR UPDATE`,
    [projectKey, PRODUCT_TYPE_ID, productTypeId],
  );
  return found.rows;
}

/** Both data versions of one (locked) product follow the changes: a new version (and ResourceUpdated) when anything changed. */
async function followOne(store: DocumentStore, write: WriteContext, product: { id: string; version: number }, changes: readonly AttributeChange[]) {
  await store.update<Product>(write, PRODUCT_TYPE_ID, { id: product.id }, product.version, (current) => {
    changeData(current.masterData.current, changes);
    changeData(current.masterData.staged, changes);
    // A staged-only value of a removed attribute was the only difference, perhaps.
    current.masterData.hasStagedChanges = !isDeepStrictEqual(current.masterData.current, current.masterData.staged);
    return { doc: current };
  });
}

/**
 * The products of a ProductType follow its update: renamed, re-keyed and relabelled attributes
 * and enum values, removed attributes (attribute-changes.ts), and so do the nested values of that
 * type in the products of every type nesting it, at any depth. The reference does this "in an
 * eventually consistent way"; Herald does it in the ProductType update's own transaction `tx`
 * (the definition's `updatedAlongside`): the type and every product it changes commit together,
 * or nothing does. The reference has no product message for it: subscribers see the products'
 * change notifications, appended to the outbox in the same transaction.
 */
export async function followProductTypeUpdate(
  documents: DocumentStore,
  tx: Queryable,
  write: WriteContext,
  productTypeId: string,
  actions: readonly UpdateAction[],
): Promise<void> {
  const changes = attributeChangesOf(actions);
  if (changes.length === 0) return;
  const store = documents.within(tx);
  const pending: TypeChanges[] = [{ typeId: productTypeId, changes, via: [] }];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    for (const product of await lockProductsOfType(tx, write.projectKey, next.typeId)) await followOne(store, write, product, next.changes);
    // Along each chain of nesting types, a type met again (one nesting itself, a cycle) ends the walk.
    if (!next.via.includes(next.typeId)) pending.push(...(await nestingTypeChanges(tx, write.projectKey, next)));
  }
}

/** A ProductType, what its products' attributes undergo, and the chain of nested types that led to it. */
interface TypeChanges {
  typeId: string;
  changes: readonly AttributeChange[];
  via: readonly string[];
}

/** The types nesting `nested.typeId`, each with the changes its attributes of that type undergo. */
async function nestingTypeChanges(tx: Queryable, projectKey: string, nested: TypeChanges): Promise<TypeChanges[]> {
  const nesting = await productTypesNesting(tx, projectKey, nested.typeId);
  return nesting.map((productType) => ({
    typeId: productType.id,
    changes: nestedAttributeChanges(productType.attributes, nested.typeId, nested.changes),
    via: [...nested.via, nested.typeId],
  }));
}
