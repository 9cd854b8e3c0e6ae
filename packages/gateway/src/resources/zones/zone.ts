import type { BaseResource } from '@herald/model';
import type { Location } from './location.js';

export const ZONE_TYPE_ID = 'zone';

/** The reference's Zone (types/zone/Zone.raml): a named set of Locations, each in one Zone only. */
export interface Zone extends BaseResource {
  key?: string;
  name: string;
  description?: string;
  locations: Location[];
}
