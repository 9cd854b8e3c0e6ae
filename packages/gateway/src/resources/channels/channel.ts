import type { BaseResource, CustomFields, LocalizedString } from '@herald/model';
import type { Address } from '../shared/address.js';

export const CHANNEL_TYPE_ID = 'channel';

/** The reference's ChannelRoleEnum. */
export const CHANNEL_ROLES = ['InventorySupply', 'ProductDistribution', 'OrderExport', 'OrderImport', 'Primary'] as const;
export type ChannelRole = (typeof CHANNEL_ROLES)[number];

/** The reference's GeoJsonPoint, the only GeoJson geometry a Channel takes (ChannelDraft.geoLocation). */
export interface GeoJsonPoint {
  type: 'Point';
  /** Longitude at [0], latitude at [1]. */
  coordinates: [number, number];
}

/** A Channel's address: the common fields, the client's `id`, and custom fields of Types for `address`. */
export type ChannelAddress = Address & { custom?: CustomFields };

/**
 * The reference's Channel (types/channel/Channel.raml). `reviewRatingStatistics` is computed by the
 * platform from reviews, which Herald does not have: never set, and never taken from a draft.
 */
export interface Channel extends BaseResource {
  key: string;
  roles: ChannelRole[];
  name?: LocalizedString;
  description?: LocalizedString;
  address?: ChannelAddress;
  geoLocation?: GeoJsonPoint;
  custom?: CustomFields;
}
