import { invalidInput, type MessagePayload, type Reference } from '@herald/model';
import type { ChannelRole } from '../channels/channel.js';
import { channelReference } from '../channels/reference.js';
import type { Load } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { withStoreDefaults, type Store } from './store.js';

/*
 * A Store's distribution and supply channels (reference: StoreDraft, the Store channel update
 * actions, StoreDistributionChannelsChanged / StoreSupplyChannelsChanged). Every Channel named must
 * exist (400 ReferencedResourceNotFound) and have the list's role (400 MissingRoleOnChannel):
 * ProductDistribution for distribution channels, InventorySupply for supply channels.
 */

type ChannelList = 'distributionChannels' | 'supplyChannels';

interface ListRule {
  role: ChannelRole;
  /** The single-channel field of addX / removeX. */
  item: 'distributionChannel' | 'supplyChannel';
  message: 'StoreDistributionChannelsChanged' | 'StoreSupplyChannelsChanged';
  added: string;
  removed: string;
}

const RULES: Readonly<Record<ChannelList, ListRule>> = {
  distributionChannels: {
    role: 'ProductDistribution',
    item: 'distributionChannel',
    message: 'StoreDistributionChannelsChanged',
    added: 'addedDistributionChannels',
    removed: 'removedDistributionChannels',
  },
  supplyChannels: {
    role: 'InventorySupply',
    item: 'supplyChannel',
    message: 'StoreSupplyChannelsChanged',
    added: 'addedSupplyChannels',
    removed: 'removedSupplyChannels',
  },
};

/** The reference's maxItems of each list. */
const MAX_ITEMS = 100;

/** A list of ChannelResourceIdentifiers resolved, each Channel once, in the order given. */
async function channelList(load: Load, value: unknown, list: ChannelList): Promise<Array<Reference<'channel'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    throw invalidInput(`'${list}' must be an array of at most ${MAX_ITEMS} Channel identifiers.`, { field: list });
  }
  const references: Array<Reference<'channel'>> = [];
  for (const [index, item] of value.entries()) {
    const reference = await channelReference(load, item, `${list}[${index}]`, RULES[list].role);
    if (!references.some((known) => known.id === reference.id)) references.push(reference);
  }
  return references;
}

/** The two channel lists of a StoreDraft, resolved and role-checked. */
export async function storeDraftChannels(draft: Record<string, unknown>, load: Load): Promise<Pick<Store, ChannelList>> {
  return {
    distributionChannels: await channelList(load, draft.distributionChannels, 'distributionChannels'),
    supplyChannels: await channelList(load, draft.supplyChannels, 'supplyChannels'),
  };
}

/** Replaces the list; its message lists what was added and removed, and nothing changed is no message. */
function replaceList(store: Store, list: ChannelList, next: Array<Reference<'channel'>>): MessagePayload[] {
  const current = withStoreDefaults(store)[list];
  const added = next.filter((reference) => !current.some((known) => known.id === reference.id));
  const removed = current.filter((known) => !next.some((reference) => reference.id === known.id));
  if (added.length === 0 && removed.length === 0) return [];
  store[list] = next;
  const rule = RULES[list];
  return [{ type: rule.message, ...(added.length === 0 ? {} : { [rule.added]: added }), ...(removed.length === 0 ? {} : { [rule.removed]: removed }) }];
}

function setList(list: ChannelList): ActionHandler<Store> {
  return async (store, action, { reader }) => replaceList(store, list, await channelList(reader.get, action[list], list));
}

function itemOf(action: Record<string, unknown>, list: ChannelList): unknown {
  const field = RULES[list].item;
  if (action[field] === undefined || action[field] === null) throw invalidInput(`'${field}' is required.`, { field });
  return action[field];
}

/** addX: "It has no effect if a given distribution channel is already present in a Store." */
function addToList(list: ChannelList): ActionHandler<Store> {
  return async (store, action, { reader }) => {
    const reference = await channelReference(reader.get, itemOf(action, list), RULES[list].item, RULES[list].role);
    return replaceList(store, list, [...withStoreDefaults(store)[list].filter((known) => known.id !== reference.id), reference]);
  };
}

/** removeX: a Channel that exists but is not in the list changes nothing. */
function removeFromList(list: ChannelList): ActionHandler<Store> {
  return async (store, action, { reader }) => {
    const reference = await channelReference(reader.get, itemOf(action, list), RULES[list].item);
    return replaceList(
      store,
      list,
      withStoreDefaults(store)[list].filter((known) => known.id !== reference.id),
    );
  };
}

export const storeChannelActions: ActionHandlers<Store> = {
  setDistributionChannels: setList('distributionChannels'),
  addDistributionChannel: addToList('distributionChannels'),
  removeDistributionChannel: removeFromList('distributionChannels'),
  setSupplyChannels: setList('supplyChannels'),
  addSupplyChannel: addToList('supplyChannels'),
  removeSupplyChannel: removeFromList('supplyChannels'),
};
