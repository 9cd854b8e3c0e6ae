import type { BaseResource, CustomFields } from '@herald/model';

export const CUSTOMER_GROUP_TYPE_ID = 'customer-group';

/**
 * The reference's CustomerGroup (types/customer-group/CustomerGroup.raml): `name` is unique in the
 * project; the draft names it `groupName` (CustomerGroupDraft.raml).
 */
export interface CustomerGroup extends BaseResource {
  key?: string;
  name: string;
  custom?: CustomFields;
}
