import { ApiError } from '@herald/model';
import type { Queryable } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import { typeShape } from './attribute-types.js';
import { PRODUCT_TYPE_TYPE_ID, type AttributeDefinition } from './product-type.js';

interface SameNamed {
  id: string;
  name: string;
  attribute: AttributeDefinition;
}

/** The definitions named like `names` in the project's other ProductTypes. */
async function sameNamedElsewhere(db: Queryable, projectKey: string, names: readonly string[], selfId: string | undefined): Promise<SameNamed[]> {
  const found = await db.query<SameNamed>(
    `SELECT id, doc ->> 'name' AS name, attribute FROM resources CROSS JOIN LATERAL jsonb_array_elements(doc -> 'attributes') AS attribute
      WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND attribute ->> 'name' = ANY($4::text[])`,
    [projectKey, PRODUCT_TYPE_TYPE_ID, selfId ?? '', names],
  );
  return found.rows;
}

function attributeDefinitionTypeConflict(name: string, other: SameNamed): ApiError {
  return new ApiError(400, {
    code: 'AttributeDefinitionTypeConflict',
    message: `The attribute with name ${name} has a different type on product type ${other.name}.`,
    conflictingProductTypeId: other.id,
    conflictingProductTypeName: other.name,
    conflictingAttributeName: name,
  });
}

/**
 * AttributeDefinitionDraft.name: "to use the same name in multiple ProductTypes, each
 * AttributeDefinition must have the same type; otherwise, an AttributeDefinitionTypeConflict error
 * is returned" (enum values may differ: typeShape). A read, not under a lock: two ProductTypes
 * created at the same instant with conflicting types are an accepted race, as for States' checks.
 */
export async function assertNoTypeConflict(db: Queryable, projectKey: string, definitions: readonly AttributeDefinition[], selfId?: string): Promise<void> {
  if (definitions.length === 0) return;
  const others = await sameNamedElsewhere(
    db,
    projectKey,
    definitions.map(({ name }) => name),
    selfId,
  );
  for (const definition of definitions) {
    const conflicting = others.find(
      ({ attribute }) => attribute.name === definition.name && !isDeepStrictEqual(typeShape(attribute.type), typeShape(definition.type)),
    );
    if (conflicting !== undefined) throw attributeDefinitionTypeConflict(definition.name, conflicting);
  }
}
