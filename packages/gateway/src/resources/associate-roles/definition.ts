import { invalidInput, invalidOperation } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import { isReservedRoleKey } from '../associates/built-in-roles.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, optionalString, validKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { ASSOCIATE_ROLE_TYPE_ID, type AssociateRole } from './associate-role.js';
import { permission, permissionList } from './permissions-field.js';

/** The built-in roles (associates/built-in-roles.ts) keep their keys: no stored role may shadow one. */
function roleKey(value: unknown): string {
  const key = validKey(value);
  if (isReservedRoleKey(key)) {
    throw invalidInput(`The key '${key}' is reserved for Herald's built-in associate role (spec §2.2 Admin, Buyer).`, { field: 'key', invalidValue: key });
  }
  return key;
}

function buyerAssignable(value: unknown): boolean {
  // The reference's AssociateRoleDraft: `buyerAssignable` defaults to true.
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw invalidInput("'buyerAssignable' must be a boolean.", { field: 'buyerAssignable', invalidValue: value });
  return value;
}

/**
 * A role still assigned in a business unit is not deleted (400 ReferenceExists): the assignments
 * hold its key, and a role created later with the same key would silently take over their
 * associates' permissions (as for Stores).
 */
async function assignedIn(tx: Parameters<NonNullable<ResourceDefinition<AssociateRole>['assertDeletable']>>[1], projectKey: string, key: string) {
  return referencingType(tx, projectKey, `$.associates[*].associateRoleAssignments[*].associateRole ? (@.key == ${JSON.stringify(key)})`, ['business-unit']);
}

/**
 * `/{projectKey}/associate-roles` (reference: resources/associate-roles.raml, types/associate-role).
 * Every change that changes something emits its AssociateRole* message; the reference has no
 * custom field messages for associate roles, so those changes are new versions only.
 */
export const associateRoleDefinition: ResourceDefinition<AssociateRole> = {
  typeId: ASSOCIATE_ROLE_TYPE_ID,
  path: 'associate-roles',
  scopes: { view: ['view_associate_roles'], manage: ['manage_associate_roles'] },

  async fromDraft(body, ctx) {
    const draft = asDraft(body, 'AssociateRoleDraft');
    const fields: Omit<AssociateRole, ServerFields> = {
      key: roleKey(draft.key),
      buyerAssignable: buyerAssignable(draft.buyerAssignable),
      permissions: permissionList(draft.permissions, 'permissions'),
    };
    const name = optionalString(draft.name, 'name', 256);
    if (name !== undefined) fields.name = name;
    const custom = await customFromDraft(draft.custom, ASSOCIATE_ROLE_TYPE_ID, ctx);
    if (custom !== undefined) fields.custom = custom;
    return fields;
  },

  createdMessages: (associateRole) => [{ type: 'AssociateRoleCreated', associateRole }],
  deletedMessages: () => [{ type: 'AssociateRoleDeleted' }],

  async assertDeletable(role, tx, ctx) {
    const holder = await assignedIn(tx, ctx.projectKey, role.key);
    if (holder !== undefined) {
      throw referenceExists(`The associate role '${role.key}' is still assigned in a business unit; remove those assignments first.`, holder);
    }
  },

  /** An action that changes nothing emits no message and makes no new version (as for Stores). */
  actions: {
    setName(role, action) {
      const name = optionalString(action.name, 'name', 256);
      if (name === role.name) return [];
      if (name === undefined) delete role.name;
      else role.name = name;
      return [{ type: 'AssociateRoleNameSet', ...(name === undefined ? {} : { name }) }];
    },
    changeBuyerAssignable(role, action) {
      if (typeof action.buyerAssignable !== 'boolean') {
        throw invalidInput("'buyerAssignable' must be a boolean.", { field: 'buyerAssignable', invalidValue: action.buyerAssignable });
      }
      if (action.buyerAssignable === role.buyerAssignable) return [];
      role.buyerAssignable = action.buyerAssignable;
      return [{ type: 'AssociateRoleBuyerAssignableChanged', buyerAssignable: role.buyerAssignable }];
    },
    addPermission(role, action) {
      const added = permission(action.permission, 'permission');
      if (role.permissions.includes(added)) return [];
      role.permissions.push(added);
      return [{ type: 'AssociateRolePermissionAdded', permission: added }];
    },
    removePermission(role, action) {
      const removed = permission(action.permission, 'permission');
      if (!role.permissions.includes(removed)) {
        throw invalidOperation(`The associate role '${role.key}' does not have the permission '${removed}'.`);
      }
      role.permissions = role.permissions.filter((known) => known !== removed);
      return [{ type: 'AssociateRolePermissionRemoved', permission: removed }];
    },
    setPermissions(role, action) {
      const permissions = permissionList(action.permissions, 'permissions');
      if (isDeepStrictEqual(permissions, role.permissions)) return [];
      role.permissions = permissions;
      return [{ type: 'AssociateRolePermissionsSet', permissions }];
    },
    ...customFieldActions<AssociateRole>(ASSOCIATE_ROLE_TYPE_ID, { messages: false }),
  },
};
