/**
 * Querying channels by place: `geoLocation within circle(longitude, latitude, radiusInMeters)`, the
 * reference's geo predicate on Channel.geoLocation (a GeoJSON Point), combined with the other
 * predicates and paging, and its bad circles answered 400 InvalidInput, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const SETUP_MS = 180_000;
const P = 'geo-channels';

/** Longitude first, as GeoJSON has it. */
const PLACES: Record<string, [number, number]> = {
  'berlin-mitte': [13.37774, 52.51627],
  // About 2.5 km from Berlin Mitte.
  'berlin-kreuzberg': [13.4034, 52.4999],
  // About 25 km away.
  potsdam: [13.0645, 52.3906],
  hamburg: [9.9937, 53.5511],
};

const where = (predicate: string): string => `/${P}/channels?where=${encodeURIComponent(predicate)}&sort=key%20asc`;

describe('Channel queries with geoLocation within circle(…)', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let viewer: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    const admin = await callerWith(gateway, P, ['manage_channels']);
    viewer = await callerWith(gateway, P, ['view_channels']);
    for (const [key, coordinates] of Object.entries(PLACES)) {
      const roles = key === 'hamburg' ? ['ProductDistribution'] : ['InventorySupply'];
      await admin.ok(`/${P}/channels`, { key, roles, geoLocation: { type: 'Point', coordinates } }, 201);
    }
    await admin.ok(`/${P}/channels`, { key: 'nowhere' }, 201);
  }, SETUP_MS);
  afterAll(async () => {
    await gateway?.close();
  });

  const keysOf = (page: Json): string[] => page.results.map((channel: Json) => channel.key);

  it('finds the channels whose point lies within the radius in meters', async () => {
    expect(keysOf(await viewer.read(where('geoLocation within circle(13.37774, 52.51627, 1000)')))).toEqual(['berlin-mitte']);
    expect(keysOf(await viewer.read(where('geoLocation within circle(13.37774, 52.51627, 5000)')))).toEqual(['berlin-kreuzberg', 'berlin-mitte']);
    expect(keysOf(await viewer.read(where('geoLocation within circle(13.37774, 52.51627, 30000)')))).toEqual(['berlin-kreuzberg', 'berlin-mitte', 'potsdam']);
    // Berlin to Hamburg is about 255 km.
    expect(keysOf(await viewer.read(where('geoLocation within circle(13.37774, 52.51627, 300000)')))).toEqual([
      'berlin-kreuzberg',
      'berlin-mitte',
      'hamburg',
      'potsdam',
    ]);
  });

  it('combines with other predicates, not(…), variables and paging', async () => {
    const near = 'geoLocation within circle(13.37774, 52.51627, 300000)';
    expect(keysOf(await viewer.read(where(`${near} and roles contains any ("ProductDistribution")`)))).toEqual(['hamburg']);
    expect(keysOf(await viewer.read(where('not(geoLocation within circle(13.37774, 52.51627, 5000))')))).toEqual(['hamburg', 'nowhere', 'potsdam']);
    const withVars = await viewer.read(`${where('geoLocation within circle(:lng, :lat, :radius)')}&var.lng=9.99&var.lat=53.55&var.radius=2000`);
    expect(keysOf(withVars)).toEqual(['hamburg']);
    const page = await viewer.read(`${where(near)}&limit=2&offset=1`);
    expect(page).toMatchObject({ limit: 2, offset: 1, count: 2, total: 4 });
    expect(keysOf(page)).toEqual(['berlin-mitte', 'hamburg']);
  });

  it('answers a circle out of range or malformed with 400 InvalidInput naming the problem', async () => {
    const cases: Array<[string, string]> = [
      ['geoLocation within circle(181, 52.5, 1000)', 'the longitude must be between -180 and 180'],
      ['geoLocation within circle(13.4, 91, 1000)', 'the latitude must be between -90 and 90'],
      ['geoLocation within circle(13.4, 52.5, 0)', 'the radius (in meters) must be greater than 0'],
      ['geoLocation within circle(13.4, 52.5, -1)', 'the radius (in meters) must be greater than 0'],
      ['geoLocation within circle("13.4", 52.5, 1000)', 'needs a number for the longitude'],
      ['geoLocation within circle(13.4, 52.5)', 'expected ","'],
      ['geoLocation within square(13.4, 52.5, 1000)', 'expected "circle" after "within"'],
      ['key within circle(13.4, 52.5, 1000)', 'the field "key" is not a GeoJSON Point'],
    ];
    for (const [predicate, fragment] of cases) {
      const answer = await viewer.get(where(predicate));
      expect(answer.status, predicate).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
      expect(answer.body.message, predicate).toContain(fragment);
    }
  });
});
