/**
 * Issue 28: `zoneForAddress`, what cart pricing will use to find the Zone of a shipping address
 * (a Location belongs to one Zone only, types/zone/Location.raml).
 */
import { describe, expect, it } from 'vitest';
import { zoneForAddress } from '../../src/resources/zones/zone-for-address.js';

const europe = { name: 'Europe', locations: [{ country: 'DE' }, { country: 'FR' }] };
const texas = { name: 'Texas', locations: [{ country: 'US', state: 'Texas' }] };
const usa = { name: 'USA', locations: [{ country: 'US' }] };
const zones = [europe, texas, usa];

describe('zoneForAddress', () => {
  it('finds the Zone of the country and state before the Zone of the country alone', () => {
    expect(zoneForAddress(zones, { country: 'US', state: 'Texas' })).toBe(texas);
    expect(zoneForAddress([usa, texas], { country: 'US', state: 'Texas' })).toBe(texas);
  });

  it('falls back to the country-wide Zone for another state, no state or an empty state', () => {
    expect(zoneForAddress(zones, { country: 'US', state: 'Ohio' })).toBe(usa);
    expect(zoneForAddress(zones, { country: 'US' })).toBe(usa);
    expect(zoneForAddress(zones, { country: 'US', state: '' })).toBe(usa);
    expect(zoneForAddress(zones, { country: 'DE', state: 'Bayern' })).toBe(europe);
  });

  it('finds none for a country no Zone holds, or for a state-only Location of another state', () => {
    expect(zoneForAddress(zones, { country: 'JP' })).toBeUndefined();
    expect(zoneForAddress([texas], { country: 'US', state: 'Ohio' })).toBeUndefined();
    expect(zoneForAddress([texas], { country: 'US' })).toBeUndefined();
    // States are case-sensitive (spelled as in the cart's shipping address).
    expect(zoneForAddress([texas], { country: 'US', state: 'texas' })).toBeUndefined();
    expect(zoneForAddress([], { country: 'DE' })).toBeUndefined();
  });
});
