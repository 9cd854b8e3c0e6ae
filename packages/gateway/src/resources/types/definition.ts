import { invalidInput } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { referenceExists } from '../reference-exists.js';
import { asDraft, localizedString, stringArray, validKey } from '../validation.js';
import type { ResourceDefinition } from '../versioned-routes.js';
import { assertUniqueNames, fieldDefinition, fieldDefinitions } from './field-definitions.js';
import { CUSTOMIZABLE_RESOURCE_TYPE_IDS, type Type } from './type.js';

function resourceTypeIds(value: unknown): string[] {
  const ids = stringArray(value, 'resourceTypeIds');
  if (ids.length === 0) throw invalidInput("'resourceTypeIds' must name at least one resource type.", { field: 'resourceTypeIds' });
  for (const id of ids) {
    if (!(CUSTOMIZABLE_RESOURCE_TYPE_IDS as readonly string[]).includes(id)) {
      const hint = id === 'cart' ? " Carts use the resource type id 'order'." : '';
      throw invalidInput(`'${id}' is not a resource type id that custom fields can be defined for.${hint}`, {
        field: 'resourceTypeIds',
        invalidValue: id,
      });
    }
  }
  return [...new Set(ids)];
}

function fieldNamed(type: Type, name: unknown) {
  const definition = type.fieldDefinitions.find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw invalidInput(`The Type '${type.key}' has no field definition ${JSON.stringify(name)}.`, { field: 'fieldName' });
  }
  return definition;
}

/**
 * `/{projectKey}/types`: the Types that custom fields of every resource are validated against
 * (custom-fields.ts). Types have no messages in Herald's catalogue; subscribers get the store's
 * change notifications.
 */
export const typeDefinition: ResourceDefinition<Type> = {
  typeId: 'type',
  path: 'types',
  scopes: { view: ['view_types'], manage: ['manage_types'] },

  fromDraft(body) {
    const draft = asDraft(body, 'TypeDraft');
    const fields: Omit<Type, ServerFields> = {
      key: validKey(draft.key),
      name: localizedString(draft.name, 'name'),
      resourceTypeIds: resourceTypeIds(draft.resourceTypeIds),
      fieldDefinitions: fieldDefinitions(draft.fieldDefinitions, 'fieldDefinitions'),
    };
    if (draft.description !== undefined && draft.description !== null) {
      fields.description = localizedString(draft.description, 'description');
    }
    return fields;
  },

  /**
   * A Type that a resource of the project still uses (`custom.type`, also on the line items and
   * custom line items of carts, orders, …) is not deleted: 400 ReferenceExists.
   *
   * Concurrency: this runs in the delete's transaction after the Type row is locked FOR UPDATE
   * and deleted, so every write committed before the check is counted, and a second delete or
   * update of the Type waits. What remains is a small, accepted race: a write resolves its Type
   * before its own statement (custom-fields.ts, no lock on the Type row), so a create or
   * setCustomType that read the Type just before this delete and commits just after the check
   * can still point at the deleted Type. Closing it would take a FOR KEY SHARE lock on the Type
   * row inside every write that sets a custom type (that lock conflicts with FOR UPDATE, and the
   * writer would then find the Type gone), i.e. changes to the store's single-statement writes.
   */
  async assertDeletable(type, tx, ctx) {
    const id = JSON.stringify(type.id); // a JSON string is a valid jsonpath string literal
    // One `@?` jsonpath of equality tests: the GIN jsonb_path_ops index on `doc` answers it.
    const path = `$ ? (@.custom.type.id == ${id} || @.lineItems[*].custom.type.id == ${id} || @.customLineItems[*].custom.type.id == ${id})`;
    const found = await tx.query<{ type_id: string }>(
      'SELECT type_id FROM resources r WHERE r.project_key = $1 AND r.doc @? $2::jsonpath LIMIT 1',
      [ctx.projectKey, path],
    );
    const user = found.rows[0];
    if (user !== undefined) {
      throw referenceExists(`The Type '${type.key}' is still used by a resource of type '${user.type_id}'; remove its custom fields first.`, user.type_id);
    }
  },

  actions: {
    changeKey(type, action) {
      type.key = validKey(action.key);
    },
    changeName(type, action) {
      type.name = localizedString(action.name, 'name');
    },
    setDescription(type, action) {
      if (action.description === undefined || action.description === null) delete type.description;
      else type.description = localizedString(action.description, 'description');
    },
    addFieldDefinition(type, action) {
      type.fieldDefinitions.push(fieldDefinition(action.fieldDefinition, 'fieldDefinition'));
      assertUniqueNames(type.fieldDefinitions);
    },
    removeFieldDefinition(type, action) {
      const definition = fieldNamed(type, action.fieldName);
      type.fieldDefinitions = type.fieldDefinitions.filter((candidate) => candidate !== definition);
    },
    changeLabel(type, action) {
      fieldNamed(type, action.fieldName).label = localizedString(action.label, 'label');
    },
  },
};
