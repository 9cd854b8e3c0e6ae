import type { Queryable, ServerFields } from '@herald/store';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { channelAddress, channelAddressActions } from './address.js';
import { CHANNEL_TYPE_ID, type Channel } from './channel.js';
import { changedLocalized, channelKey, optionalLocalized } from './fields.js';
import { geoLocation } from './geo-location.js';
import { channelRoleActions, channelRoles } from './roles.js';

/**
 * The type id of one resource of the project that holds a reference to the Channel, wherever it
 * is (a Store's distribution or supply channels, and any later holder: inventory entries, prices,
 * line items, custom fields of type Reference), if any. `.**` reaches every level, which no index
 * answers: a scan of the project's documents, acceptable for a delete, which is rare.
 */
function channelHolder(db: Queryable, projectKey: string, channelId: string): Promise<string | undefined> {
  return referencingType(db, projectKey, `$.** ? (@.typeId == "channel" && @.id == ${JSON.stringify(channelId)})`);
}

/**
 * `/{projectKey}/channels` (reference: resources/channels.raml, types/channel). The reference has
 * no Channel messages: every change is a new version and a change notification only.
 */
export const channelDefinition: ResourceDefinition<Channel> = {
  typeId: CHANNEL_TYPE_ID,
  path: 'channels',
  // resources/channels.raml securedBy: the product scopes serve channels too.
  scopes: { view: ['view_channels', 'view_products'], manage: ['manage_channels', 'manage_products'] },

  async fromDraft(body, ctx) {
    const draft = asDraft(body, 'ChannelDraft');
    const fields: Omit<Channel, ServerFields> = { key: channelKey(draft.key), roles: channelRoles(draft.roles) };
    const name = optionalLocalized(draft.name, 'name');
    if (name !== undefined) fields.name = name;
    const description = optionalLocalized(draft.description, 'description');
    if (description !== undefined) fields.description = description;
    const address = await channelAddress(draft.address, ctx.load);
    if (address !== undefined) fields.address = address;
    const point = geoLocation(draft.geoLocation);
    if (point !== undefined) fields.geoLocation = point;
    const custom = await customFromDraft(draft.custom, CHANNEL_TYPE_ID, ctx);
    if (custom !== undefined) fields.custom = custom;
    return fields;
  },

  /** channels.raml DELETE: "If the Channel is referenced by a resource, a ReferenceExists error is returned." */
  async assertDeletable(channel, tx, ctx) {
    const holder = await channelHolder(tx, ctx.projectKey, channel.id);
    if (holder !== undefined) {
      throw referenceExists(`Can not delete a channel while it is referenced by at least one ${holder}.`, holder);
    }
  },

  actions: {
    changeKey(channel, action) {
      channel.key = channelKey(action.key);
    },
    changeName(channel, action) {
      channel.name = changedLocalized(action.name, channel.name, 'name');
    },
    changeDescription(channel, action) {
      channel.description = changedLocalized(action.description, channel.description, 'description');
    },
    ...channelRoleActions,
    ...channelAddressActions,
    setGeoLocation(channel, action) {
      const point = geoLocation(action.geoLocation);
      if (point === undefined) delete channel.geoLocation;
      else channel.geoLocation = point;
    },
    ...customFieldActions<Channel>(CHANNEL_TYPE_ID, { messages: false }),
  },
};
