import { mostSpecific, type AddressLocation } from './location.js';
import type { Zone } from './zone.js';

/**
 * The Zone an address lies in, for pricing a cart (shipping rates are per Zone): the Zone holding
 * the address's country and state, else the one holding its country without a state. A Location
 * belongs to at most one Zone (types/zone/Location.raml), so the answer is unique.
 */
export function zoneForAddress<Z extends Pick<Zone, 'locations'>>(zones: readonly Z[], address: AddressLocation): Z | undefined {
  const entries = zones.flatMap((zone) => zone.locations.map((where) => ({ zone, where })));
  return mostSpecific(entries, address, (entry) => entry.where)?.zone;
}
