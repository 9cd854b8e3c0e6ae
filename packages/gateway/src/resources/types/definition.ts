import { invalidInput, invalidOperation } from '@herald/model';
import type { DocumentStore, Queryable, ServerFields } from '@herald/store';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, localizedString, stringArray, validKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { assertUniqueNames, fieldDefinition, fieldDefinitions } from './field-definitions.js';
import { CUSTOMIZABLE_RESOURCE_TYPE_IDS, type Type } from './type.js';
import { enumActions } from './enum-actions.js';
import { fieldDefinitionActions } from './field-actions.js';
import { fieldNamed } from './field-lookup.js';

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

/**
 * The places a resource holds custom fields: its own, its (custom) line items' (carts, quote
 * requests), and its addresses' (business units: `addresses[*].custom`, Type resource type id
 * `address`). Without the addresses a Type used only by business-unit addresses could be deleted
 * or given a required field. These are all the callers of customFromDraft; the other addresses
 * (carts' and quote requests' shipping/billing/itemShippingAddresses, built by address.ts
 * addressFields, which drops unknown fields) carry no custom fields, nor do associates, and
 * customers have no addresses. A new holder of custom fields must be added here.
 */
const CUSTOM_HOLDERS = ['@.custom', '@.lineItems[*].custom', '@.customLineItems[*].custom', '@.addresses[*].custom'];

/**
 * The type id of one resource of the project whose custom fields (its own, its line items' or its
 * addresses') use the Type and match `condition` (a jsonpath filter on the `custom` object), if
 * any. One `@?` jsonpath whose equality tests the GIN jsonb_path_ops index on `doc` answers.
 */
async function resourceUsing(db: Queryable, projectKey: string, typeId: string, condition = ''): Promise<string | undefined> {
  const id = JSON.stringify(typeId);
  const tests = CUSTOM_HOLDERS.map((holder) => `exists(${holder} ? (@.type.id == ${id}${condition === '' ? '' : ` && ${condition}`}))`);
  return referencingType(db, projectKey, `$ ? (${tests.join(' || ')})`);
}

/**
 * `/{projectKey}/types`: the Types that custom fields of every resource are validated against
 * (custom-fields.ts). Types have no messages in Herald's catalogue; subscribers get the store's
 * change notifications.
 */
export function typeDefinition(documents: DocumentStore): ResourceDefinition<Type> {
  return {
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
     * custom line items of carts, orders, … and on business-unit addresses: CUSTOM_HOLDERS) is not
     * deleted: 400 ReferenceExists.
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
      const user = await resourceUsing(tx, ctx.projectKey, type.id);
      if (user !== undefined) {
        throw referenceExists(`The Type '${type.key}' is still used by a resource of type '${user}'; remove its custom fields first.`, user);
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
      /**
       * Resources that use the Type are checked (a read, not under a lock: a guard against mistakes,
       * not a constraint): a required field would be missing in all of them, and values left under
       * the name by a removed definition would be adopted by the new one, whatever its type.
       */
      async addFieldDefinition(type, action, { ctx }) {
        const added = fieldDefinition(action.fieldDefinition, 'fieldDefinition');
        type.fieldDefinitions.push(added);
        assertUniqueNames(type.fieldDefinitions);
        if (added.required) {
          const user = await resourceUsing(documents.db, ctx.projectKey, type.id);
          if (user !== undefined) {
            throw invalidOperation(`A required field cannot be added to the Type '${type.key}': resources of type '${user}' use it and have no value for it.`);
          }
        }
        const holder = await resourceUsing(documents.db, ctx.projectKey, type.id, `exists(@.fields.${JSON.stringify(added.name)})`);
        if (holder !== undefined) {
          throw invalidOperation(
            `Resources of type '${holder}' still hold values under '${added.name}' from an earlier field definition; remove them (setCustomField without a value) or choose another name.`,
          );
        }
      },
      removeFieldDefinition(type, action) {
        const definition = fieldNamed(type, action.fieldName);
        type.fieldDefinitions = type.fieldDefinitions.filter((candidate) => candidate !== definition);
      },
      ...fieldDefinitionActions,
      ...enumActions,
    },
  };
}
