import { invalidInput } from '@herald/model';
import type { ServerFields } from '@herald/store';
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
