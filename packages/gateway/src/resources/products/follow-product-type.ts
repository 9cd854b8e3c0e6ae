import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import type { UpdateAction } from '../shared/update-actions.js';
import { productTypesNesting } from '../product-types/nested-types.js';
import { attributeChangesOf, changedAttributes, nestedAttributeChanges, type AttributeChange } from './attribute-changes.js';
import { allVariants, PRODUCT_TYPE_ID, type Attribute, type Product, type ProductData } from './product.js';

/** Another write of the product between our read and our write (409) is retried on the fresh product. */
const ATTEMPTS = 5;

/** Products stored before Product-level attributes (or written by hand) may lack an `attributes` array: nothing to change there. */
function changeHolder(holder: { attributes?: Attribute[] }, changes: readonly AttributeChange[]): void {
  if (Array.isArray(holder.attributes)) holder.attributes = changedAttributes(holder.attributes, changes);
}

function changeData(data: ProductData, changes: readonly AttributeChange[]): void {
  changeHolder(data, changes);
  for (const variant of allVariants(data)) changeHolder(variant, changes);
}

async function productIdsOfType(ctx: RequestContext, productTypeId: string): Promise<string[]> {
  const found = await ctx.db.query<{ id: string }>(
    `SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND doc -> 'productType' ->> 'id' = $3 ORDER BY id`,
    [ctx.projectKey, PRODUCT_TYPE_ID, productTypeId],
  );
  return found.rows.map(({ id }) => id);
}

const isConcurrentModification = (error: unknown): boolean => error instanceof ApiError && error.statusCode === 409;

/** Both data versions of one product follow the changes: a new version (and ResourceUpdated) when anything changed. */
async function followOne(documents: DocumentStore, ctx: RequestContext, id: string, changes: readonly AttributeChange[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const product = await documents.get<Product>(ctx.projectKey, PRODUCT_TYPE_ID, { id });
    if (product === undefined) return;
    try {
      await documents.update<Product>(ctx.write, PRODUCT_TYPE_ID, { id }, product.version, (current) => {
        changeData(current.masterData.current, changes);
        changeData(current.masterData.staged, changes);
        // A staged-only value of a removed attribute was the only difference, perhaps.
        current.masterData.hasStagedChanges = !isDeepStrictEqual(current.masterData.current, current.masterData.staged);
        return { doc: current };
      });
      return;
    } catch (error) {
      if (!isConcurrentModification(error) || attempt === ATTEMPTS) throw error;
    }
  }
}

/**
 * The products of a ProductType follow its committed update (the ProductType definition's
 * afterUpdate): renamed, re-keyed and relabelled attributes and enum values, removed attributes
 * (attribute-changes.ts), and so do the nested values of that type in the products of every type
 * nesting it, at any depth. The reference does this "in an eventually consistent way"; Herald does
 * it before answering the ProductType update, each product in its own write. The reference has no
 * product message for it: subscribers see the products' change notifications.
 */
export async function followProductTypeUpdate(documents: DocumentStore, ctx: RequestContext, productTypeId: string, actions: readonly UpdateAction[]) {
  const changes = attributeChangesOf(actions);
  if (changes.length === 0) return;
  const pending: TypeChanges[] = [{ typeId: productTypeId, changes, via: [] }];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    for (const id of await productIdsOfType(ctx, next.typeId)) await followOne(documents, ctx, id, next.changes);
    // Along each chain of nesting types, a type met again (one nesting itself, a cycle) ends the walk.
    if (!next.via.includes(next.typeId)) pending.push(...(await nestingTypeChanges(ctx, next)));
  }
}

/** A ProductType, what its products' attributes undergo, and the chain of nested types that led to it. */
interface TypeChanges {
  typeId: string;
  changes: readonly AttributeChange[];
  via: readonly string[];
}

/** The types nesting `nested.typeId`, each with the changes its attributes of that type undergo. */
async function nestingTypeChanges(ctx: RequestContext, nested: TypeChanges): Promise<TypeChanges[]> {
  const nesting = await productTypesNesting(ctx.db, ctx.projectKey, nested.typeId);
  return nesting.map((productType) => ({
    typeId: productType.id,
    changes: nestedAttributeChanges(productType.attributes, nested.typeId, nested.changes),
    via: [...nested.via, nested.typeId],
  }));
}
