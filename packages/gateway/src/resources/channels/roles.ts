import { invalidInput, invalidOperation } from '@herald/model';
import type { ActionHandlers } from '../shared/update-actions.js';
import { CHANNEL_ROLES, type Channel, type ChannelRole } from './channel.js';

/** A list of ChannelRoleEnum values, each once, in the order given; `undefined` when absent. */
function roleList(value: unknown, field: string): ChannelRole[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > CHANNEL_ROLES.length * 4) {
    throw invalidInput(`'${field}' must be an array of ChannelRoleEnum values.`, { field });
  }
  const roles: ChannelRole[] = [];
  for (const [index, role] of value.entries()) {
    if (!(CHANNEL_ROLES as readonly unknown[]).includes(role)) {
      throw invalidInput(`'${field}[${index}]' must be one of ${CHANNEL_ROLES.join(', ')}.`, { field: `${field}[${index}]`, invalidValue: role });
    }
    if (!roles.includes(role as ChannelRole)) roles.push(role as ChannelRole);
  }
  return roles;
}

/**
 * ChannelDraft.roles and ChannelSetRolesAction.roles: absent means the default
 * `['InventorySupply']`; "The Channel must have at least one role. If set to an empty array, an
 * InvalidOperation error is returned."
 */
export function channelRoles(value: unknown, field = 'roles'): ChannelRole[] {
  const roles = roleList(value, field) ?? ['InventorySupply'];
  if (roles.length === 0) throw invalidOperation('A Channel must have at least one role.');
  return roles;
}

/** The roles of addRoles and removeRoles, which have no default. */
function givenRoles(value: unknown): ChannelRole[] {
  const roles = roleList(value, 'roles');
  if (roles === undefined) throw invalidInput("'roles' is required.", { field: 'roles' });
  return roles;
}

const sameRoles = (a: readonly ChannelRole[], b: readonly ChannelRole[]): boolean => a.length === b.length && a.every((role) => b.includes(role));

/** The reference's ChannelSetRolesAction, ChannelAddRolesAction and ChannelRemoveRolesAction. */
export const channelRoleActions: ActionHandlers<Channel> = {
  /** "If the new value is the same as the current value, an InvalidOperation error is returned." */
  setRoles(channel, action) {
    const roles = channelRoles(action.roles);
    if (sameRoles(roles, channel.roles)) throw invalidOperation(`The Channel '${channel.key}' has the roles ${roles.join(', ')} already.`);
    channel.roles = roles;
  },
  /** "If the specified roles are already present, an InvalidOperation error is returned." */
  addRoles(channel, action) {
    const added = givenRoles(action.roles);
    const present = added.filter((role) => channel.roles.includes(role));
    if (present.length > 0) throw invalidOperation(`The Channel '${channel.key}' has the role ${present.join(', ')} already.`);
    channel.roles = [...channel.roles, ...added];
  },
  /**
   * "If none of the specified roles are already present, an InvalidOperation error is returned.
   * If all roles from the Channel are removed, an InvalidOperation error is returned."
   */
  removeRoles(channel, action) {
    const removed = givenRoles(action.roles);
    if (!removed.some((role) => channel.roles.includes(role))) {
      throw invalidOperation(`The Channel '${channel.key}' has none of the roles ${removed.join(', ')}.`);
    }
    const remaining = channel.roles.filter((role) => !removed.includes(role));
    if (remaining.length === 0) throw invalidOperation(`Removing ${removed.join(', ')} would leave the Channel '${channel.key}' without a role.`);
    channel.roles = remaining;
  },
};
