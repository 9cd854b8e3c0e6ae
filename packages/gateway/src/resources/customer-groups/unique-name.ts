import { duplicateField } from '@herald/model';
import type { Queryable } from '@herald/store';
import { CUSTOMER_GROUP_TYPE_ID } from './customer-group.js';

/**
 * CustomerGroupDraft.groupName: "Unique value which must be different from any value used for
 * `name` in CustomerGroup in the Project. If not, a DuplicateField error is returned." One `@>`
 * containment test, which the GIN jsonb_path_ops index on `doc` answers.
 *
 * A read before the write, not a constraint (there is no unique index on a document field): two
 * creates or renames to the same name that commit at the same moment can both pass, an accepted
 * race, as for the checks of States' changeType.
 */
export async function assertNameFree(db: Queryable, projectKey: string, name: string, selfId?: string): Promise<void> {
  const found = await db.query<{ id: string }>('SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb AND id <> $4 LIMIT 1', [
    projectKey,
    CUSTOMER_GROUP_TYPE_ID,
    JSON.stringify({ name }),
    selfId ?? '',
  ]);
  if (found.rows.length > 0) throw duplicateField('name', name);
}
