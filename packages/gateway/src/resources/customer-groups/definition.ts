import type { DocumentStore, ServerFields } from '@herald/store';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { asDraft, optionalKey, requiredString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { CUSTOMER_GROUP_TYPE_ID, type CustomerGroup } from './customer-group.js';
import { declareCustomerGroupUniqueValues } from './unique-name.js';

/** The reference states no length for the name; this bound only keeps documents reasonable. */
const MAX_NAME_LENGTH = 4096;

function groupName(value: unknown): string {
  return requiredString({ name: value }, 'name', MAX_NAME_LENGTH);
}

/**
 * `/{projectKey}/customer-groups` (reference: resources/customer-groups.raml,
 * types/customer-group). The reference's CustomerGroup messages are its custom field ones only
 * (types/message/CustomerGroupCustom*): creating, renaming, re-keying and deleting a group are
 * change notifications and new versions, without messages.
 *
 * Deleting a group that customers reference is allowed: the reference names no ReferenceExists
 * for customer groups (it does for channels, stores and tax categories), so their `customerGroup`
 * keeps the id, and expanding it finds nothing.
 */
export function customerGroupDefinition(documents: DocumentStore): ResourceDefinition<CustomerGroup> {
  declareCustomerGroupUniqueValues(documents);
  return {
    typeId: CUSTOMER_GROUP_TYPE_ID,
    path: 'customer-groups',
    // resources/customer-groups.raml securedBy: the customer scopes serve customer groups too.
    scopes: { view: ['view_customer_groups', 'view_customers'], manage: ['manage_customer_groups', 'manage_customers'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'CustomerGroupDraft');
      const fields: Omit<CustomerGroup, ServerFields> = { name: requiredString(draft, 'groupName', MAX_NAME_LENGTH) };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      const custom = await customFromDraft(draft.custom, CUSTOMER_GROUP_TYPE_ID, ctx);
      if (custom !== undefined) fields.custom = custom;
      return fields;
    },

    actions: {
      changeName(group, action) {
        // A name another group holds is refused by the store's claim (unique-name.ts).
        group.name = groupName(action.name);
      },
      setKey(group, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete group.key;
        else group.key = key;
      },
      ...customFieldActions<CustomerGroup>(CUSTOMER_GROUP_TYPE_ID),
    },
  };
}
