import { invalidInput, type BaseResource, type CustomFields } from '@herald/model';
import { address } from '../shared/address.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { ADDRESS_CUSTOM_FIELDS_TYPE_ID } from '../shared/owned-addresses.js';
import type { Load } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Channel, ChannelAddress } from './channel.js';

/**
 * ChannelDraft.address / ChannelSetAddressAction.address (BaseAddress: an AddressDraft may carry
 * `custom`, checked against a Type for `address`). Absent or null: none.
 */
export async function channelAddress(value: unknown, load: Load): Promise<ChannelAddress | undefined> {
  if (value === undefined || value === null) return undefined;
  const result: ChannelAddress = address(value, 'address');
  const custom = await customFromDraft((value as { custom?: unknown }).custom, ADDRESS_CUSTOM_FIELDS_TYPE_ID, { load });
  if (custom !== undefined) result.custom = custom;
  return result;
}

/** What the shared custom-field handlers read and write: only `custom`. */
type CustomHolder = BaseResource & { custom?: CustomFields };

// The reference has no Channel messages: address custom changes are new versions only.
const addressCustomHandlers = customFieldActions<CustomHolder>(ADDRESS_CUSTOM_FIELDS_TYPE_ID, { messages: false });

/**
 * The shared handler `name` applied to the Channel's address: "To set a Custom Type [or Field] for
 * a Channel, `Channel.address` must be set; otherwise, an InvalidInput error is returned." The
 * address object itself is handed over (the handlers touch only its `custom`), so the change lands
 * in the Channel being updated.
 */
function onAddress(name: 'setCustomType' | 'setCustomField'): ActionHandler<Channel> {
  const handler = addressCustomHandlers[name];
  if (handler === undefined) throw new Error(`customFieldActions() has no ${name}`);
  return async (channel, action, scope) => {
    if (channel.address === undefined) {
      throw invalidInput(`The Channel '${channel.key}' has no address; use setAddress first.`, { field: 'address' });
    }
    await handler(channel.address as unknown as CustomHolder, action, scope);
  };
}

/** The reference's ChannelSetAddressAction, ChannelSetAddressCustomTypeAction and ChannelSetAddressCustomFieldAction. */
export const channelAddressActions: ActionHandlers<Channel> = {
  async setAddress(channel, action, { reader }) {
    const next = await channelAddress(action.address, reader.get);
    if (next === undefined) delete channel.address;
    else channel.address = next;
  },
  setAddressCustomType: onAddress('setCustomType'),
  setAddressCustomField: onAddress('setCustomField'),
};
