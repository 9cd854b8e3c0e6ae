import { invalidInput } from '@herald/model';
import { isPermission, PERMISSIONS, type Permission } from '../associates/permissions.js';

/** One value of the reference's Permission enum (400 InvalidInput naming the field otherwise). */
export function permission(value: unknown, field: string): Permission {
  if (!isPermission(value)) {
    throw invalidInput(`'${field}' must be a Permission (one of ${PERMISSIONS.join(', ')}).`, { field, invalidValue: value });
  }
  return value;
}

/** AssociateRoleDraft.permissions / setPermissions: a list of Permissions, each once, in the order given. */
export function permissionList(value: unknown, field: string): Permission[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > PERMISSIONS.length * 2) {
    throw invalidInput(`'${field}' must be an array of Permissions.`, { field });
  }
  const result: Permission[] = [];
  for (const [index, item] of value.entries()) {
    const checked = permission(item, `${field}[${index}]`);
    if (!result.includes(checked)) result.push(checked);
  }
  return result;
}
