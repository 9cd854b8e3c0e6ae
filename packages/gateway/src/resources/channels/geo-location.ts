import { invalidInput } from '@herald/model';
import type { GeoJsonPoint } from './channel.js';

const POINT_HINT = 'a GeoJSON Point such as {"type": "Point", "coordinates": [13.37, 52.51]} (longitude, latitude)';

function inRange(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

/**
 * ChannelDraft.geoLocation / ChannelSetGeoLocationAction.geoLocation: "Currently, only the Point
 * type is supported" (GeoJsonPoint: `coordinates` longitude at [0], latitude at [1], RFC 7946
 * §3.1.2), so a longitude outside ±180 or a latitude outside ±90 is refused. Absent or null: none.
 */
export function geoLocation(value: unknown, field = 'geoLocation'): GeoJsonPoint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput(`'${field}' must be ${POINT_HINT}.`, { field, invalidValue: value });
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (type !== 'Point') throw invalidInput(`'${field}.type' must be 'Point', the only GeoJSON type a Channel takes.`, { field, invalidValue: type });
  if (!Array.isArray(coordinates) || coordinates.length !== 2 || !inRange(coordinates[0], 180) || !inRange(coordinates[1], 90)) {
    throw invalidInput(`'${field}.coordinates' must be [longitude, latitude] within ±180 and ±90: ${POINT_HINT}.`, { field, invalidValue: coordinates });
  }
  return { type: 'Point', coordinates: [coordinates[0], coordinates[1]] };
}
