import { ApiError, type Reference } from '@herald/model';
import type { Locator } from '@herald/store';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { CHANNEL_TYPE_ID, type Channel, type ChannelRole } from './channel.js';

/**
 * The reference's MissingRoleOnChannelError (400): "Given channel with $idOrKeyOfChannel does not
 * have the required role $role.", with the ResourceIdentifier as given and the role missing.
 */
function missingRoleOnChannel(locator: Locator, missingRole: ChannelRole): ApiError {
  const given = 'id' in locator ? locator.id : locator.key;
  return new ApiError(400, {
    code: 'MissingRoleOnChannel',
    message: `Given channel with ${given} does not have the required role ${missingRole}.`,
    channel: { typeId: CHANNEL_TYPE_ID, ...locator },
    missingRole,
  });
}

/**
 * A ChannelResourceIdentifier resolved to a reference by id: 400 ReferencedResourceNotFound when no
 * such Channel exists, 400 MissingRoleOnChannel when it lacks `requiredRole` (a Store's distribution
 * channels need ProductDistribution, its supply channels InventorySupply: StoreDraft).
 */
export async function channelReference(load: Load, value: unknown, field: string, requiredRole?: ChannelRole): Promise<Reference<'channel'>> {
  const locator = identifierLocator(value, field, CHANNEL_TYPE_ID);
  const channel = await loadReferenced<Channel>(load, CHANNEL_TYPE_ID, locator);
  if (requiredRole !== undefined && !channel.roles.includes(requiredRole)) throw missingRoleOnChannel(locator, requiredRole);
  return { typeId: CHANNEL_TYPE_ID, id: channel.id };
}
