import type { BaseResource, CustomFields } from '@herald/model';
import type { Permission } from '../associates/permissions.js';

export const ASSOCIATE_ROLE_TYPE_ID = 'associate-role';

/** The reference's AssociateRole (types/associate-role/AssociateRole.raml). */
export interface AssociateRole extends BaseResource {
  key: string;
  name?: string;
  /** Whether a buyer (an associate through the My/as-associate endpoints) may assign it; default true. */
  buyerAssignable: boolean;
  permissions: Permission[];
  custom?: CustomFields;
}
