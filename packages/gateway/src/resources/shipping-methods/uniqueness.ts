import { duplicateField, invalidOperation } from '@herald/model';
import type { Queryable } from '@herald/store';
import { SHIPPING_METHOD_TYPE_ID } from './shipping-method.js';

/** Another method of the project (not `selfId`) that contains `fragment`, by one `@>` test the GIN index answers. */
async function otherHolding(db: Queryable, projectKey: string, fragment: object, selfId?: string): Promise<string | undefined> {
  const found = await db.query<{ name: string }>(
    `SELECT doc ->> 'name' AS name FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @> $4::jsonb LIMIT 1`,
    [projectKey, SHIPPING_METHOD_TYPE_ID, selfId ?? '', JSON.stringify(fragment)],
  );
  return found.rows[0]?.name;
}

/**
 * ShippingMethodDraft.name: "Unique name for the ShippingMethod within a Project" (changeName:
 * "Unique value to set"): DuplicateField, as for the other unique names. A read before the write,
 * not a constraint: two creates with one name committing at the same moment can both pass, the
 * accepted race of the other resources' name checks.
 */
export async function assertNameFree(db: Queryable, projectKey: string, name: string, selfId?: string): Promise<void> {
  if ((await otherHolding(db, projectKey, { name }, selfId)) !== undefined) throw duplicateField('name', name);
}

/**
 * ShippingMethodChangeIsDefaultAction: "Only one ShippingMethod can be default in a Project." The
 * reference names no error code; Herald refuses a second default with InvalidOperation naming the
 * current one, rather than silently unsetting another resource (which would change it without
 * its own version and notification). Same accepted race as the name.
 */
export async function assertNoOtherDefault(db: Queryable, projectKey: string, selfId?: string): Promise<void> {
  const holder = await otherHolding(db, projectKey, { isDefault: true }, selfId);
  if (holder !== undefined) {
    throw invalidOperation(`The ShippingMethod '${holder}' is the project's default already; only one ShippingMethod can be default.`);
  }
}
