import { ApiError } from '@herald/model';
import { holdsItems, holdsItemsSql, holdsNoItemsSql, jsonpathMayReadItems, withoutItemsSql, type Queryable } from '@herald/store';

/**
 * 400 ReferenceExists: a delete refused because other resources still point at the resource
 * (`referencedBy`: the type id of one of them).
 */
export function referenceExists(message: string, referencedBy: string): ApiError {
  return new ApiError(400, { code: 'ReferenceExists', message, referencedBy });
}

/**
 * The type id of one resource of the project whose document matches `jsonpath` (an `@?` test), among
 * `typeIds` when given, if any: what makes a Type, a Store or a State "in use". Values go into the
 * path as JSON strings (`JSON.stringify`), which are valid jsonpath string literals.
 *
 * Two branches, one per document index (store document-indexes.ts): the types without items, whose
 * GIN index answers any path, and the types with items, whose index answers a path that does not
 * read the items; one that does (a line item's custom type, `**`) reads their every document.
 */
export async function referencingType(db: Queryable, projectKey: string, jsonpath: string, typeIds?: readonly string[]): Promise<string | undefined> {
  const params: unknown[] = [projectKey, jsonpath];
  const branches: string[] = [];
  /** One index's branch: its types (`condition`), narrowed to `types` when given, tested on `doc`. */
  const branch = (condition: string, types: readonly string[] | undefined, doc: string) => {
    if (types?.length === 0) return;
    if (types !== undefined) params.push(types);
    const among = types === undefined ? '' : ` AND r.type_id = ANY($${params.length}::text[])`;
    branches.push(`(SELECT r.type_id FROM resources r WHERE r.project_key = $1 AND ${condition}${among} AND ${doc} @? $2::jsonpath LIMIT 1)`);
  };
  branch(
    holdsNoItemsSql('r'),
    typeIds?.filter((typeId) => !holdsItems(typeId)),
    'r.doc',
  );
  branch(holdsItemsSql('r'), typeIds?.filter(holdsItems), jsonpathMayReadItems(jsonpath) ? 'r.doc' : withoutItemsSql('r'));
  if (branches.length === 0) return undefined;
  const found = await db.query<{ type_id: string }>(`SELECT type_id FROM (${branches.join(' UNION ALL ')}) found LIMIT 1`, params);
  return found.rows[0]?.type_id;
}
