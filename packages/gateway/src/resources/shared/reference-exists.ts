import { ApiError } from '@herald/model';
import type { Queryable } from '@herald/store';

/**
 * 400 ReferenceExists: a delete refused because other resources still point at the resource
 * (`referencedBy`: the type id of one of them).
 */
export function referenceExists(message: string, referencedBy: string): ApiError {
  return new ApiError(400, { code: 'ReferenceExists', message, referencedBy });
}

/**
 * The type id of one resource of the project whose document matches `jsonpath` (an `@?` test:
 * the GIN jsonb_path_ops index on `doc` answers its equalities), among `typeIds` when given, if
 * any: what makes a Type, a Store or a State "in use". Values go into the path as JSON strings
 * (`JSON.stringify`), which are valid jsonpath string literals.
 */
export async function referencingType(db: Queryable, projectKey: string, jsonpath: string, typeIds?: readonly string[]): Promise<string | undefined> {
  const found =
    typeIds === undefined
      ? await db.query<{ type_id: string }>('SELECT type_id FROM resources WHERE project_key = $1 AND doc @? $2::jsonpath LIMIT 1', [projectKey, jsonpath])
      : await db.query<{ type_id: string }>(
          'SELECT type_id FROM resources WHERE project_key = $1 AND type_id = ANY($3::text[]) AND doc @? $2::jsonpath LIMIT 1',
          [projectKey, jsonpath, typeIds],
        );
  return found.rows[0]?.type_id;
}
