import { invalidOperation } from '@herald/model';
import type { DocumentStore, Queryable, UniqueValue } from '@herald/store';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod } from './shipping-method.js';

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
 * "Unique value to set"): 400 DuplicateField `name`. The store claims the name in the write itself
 * (packages/store documents/unique-values.ts; migration 014 claims the names stored before), so
 * two creates or renames racing for one name cannot both succeed.
 */
export const shippingMethodUniqueValues = (method: ShippingMethod): UniqueValue[] => [{ field: 'name', value: method.name }];

export function declareShippingMethodUniqueValues(documents: DocumentStore): void {
  documents.declareUniqueValues<ShippingMethod>(SHIPPING_METHOD_TYPE_ID, shippingMethodUniqueValues);
}

/**
 * ShippingMethodChangeIsDefaultAction: "Only one ShippingMethod can be default in a Project." The
 * reference names no error code; Herald refuses a second default with InvalidOperation naming the
 * current one, rather than silently unsetting another resource (which would change it without
 * its own version and notification). A read before the write, not a claim (a claim answers
 * DuplicateField, not this InvalidOperation): two methods made default at the same moment can both
 * pass, an accepted race.
 */
export async function assertNoOtherDefault(db: Queryable, projectKey: string, selfId?: string): Promise<void> {
  const holder = await otherHolding(db, projectKey, { isDefault: true }, selfId);
  if (holder !== undefined) {
    throw invalidOperation(`The ShippingMethod '${holder}' is the project's default already; only one ShippingMethod can be default.`);
  }
}
