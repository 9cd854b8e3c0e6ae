import { invalidInput, type Clock } from '@herald/model';
import type { Channel } from '../channels/channel.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler } from '../shared/update-actions.js';
import { optionalString } from '../shared/validation.js';
import { optionalDateTime } from '../staged-quotes/actions.js';
import type { Order } from './order.js';

/**
 * Reference OrderUpdateSyncInfoAction: records an export or import of the order. "The referenced
 * Channel must have the Channel Role `OrderExport` or `OrderImport`. Otherwise this update action
 * returns an InvalidInput error"; `syncedAt` defaults to now. The reference has no message for it.
 */
export function updateSyncInfo(clock: Clock): ActionHandler<Order> {
  return async (order, action, { reader }): Promise<void> => {
    if (action.channel === undefined || action.channel === null) throw invalidInput("'channel' is required.", { field: 'channel' });
    const channel = await loadReferenced<Channel>(reader.get, 'channel', identifierLocator(action.channel, 'channel', 'channel'));
    if (!channel.roles.some((role) => role === 'OrderExport' || role === 'OrderImport')) {
      throw invalidInput(`The channel '${channel.key}' has neither the role OrderExport nor OrderImport.`, { field: 'channel' });
    }
    const externalId = optionalString(action.externalId, 'externalId', 256);
    const syncedAt = optionalDateTime(action.syncedAt, 'syncedAt') ?? clock.now().toISOString();
    order.syncInfo.push({ channel: { typeId: 'channel', id: channel.id }, ...(externalId === undefined ? {} : { externalId }), syncedAt });
  };
}
