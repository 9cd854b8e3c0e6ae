import type { DocumentStore, UniqueValue } from '@herald/store';
import { CUSTOMER_GROUP_TYPE_ID, type CustomerGroup } from './customer-group.js';

/**
 * CustomerGroupDraft.groupName: "Unique value which must be different from any value used for
 * `name` in CustomerGroup in the Project. If not, a DuplicateField error is returned." The store
 * claims the name in the write itself (packages/store documents/unique-values.ts; migration 014
 * claims the names stored before): one index probe instead of a search of the groups, and two
 * creates or renames racing for one name cannot both succeed (400 DuplicateField `name`).
 */
export const customerGroupUniqueValues = (group: CustomerGroup): UniqueValue[] => [{ field: 'name', value: group.name }];

export function declareCustomerGroupUniqueValues(documents: DocumentStore): void {
  documents.declareUniqueValues<CustomerGroup>(CUSTOMER_GROUP_TYPE_ID, customerGroupUniqueValues);
}
