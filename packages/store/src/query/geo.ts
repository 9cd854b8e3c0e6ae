/**
 * `field within circle(longitude, latitude, radius)`: the reference's geo predicate on a GeoJSON
 * Point (Channel.geoLocation, `{type: "Point", coordinates: [longitude, latitude]}`), the radius in
 * meters. There is no PostGIS (PGlite has none): the great-circle distance is the haversine formula
 * in plain SQL, on a sphere of the Earth's mean radius.
 */
import type { Circle } from './ast.js';
import { jsonPathString } from './jsonpath.js';
import type { SqlParameters } from './parameters.js';

/** The IUGG mean radius of the Earth, in meters. */
const EARTH_RADIUS_METERS = 6_371_008.8;

/**
 * Degrees are rounded to this many decimals (1e-12 degrees is about 0.1 micrometer) before the
 * trigonometry: PostgreSQL raises an underflow error when a float8 product rounds to zero from
 * nonzero factors, which the square of the sine of a difference like 5e-324 degrees would.
 */
const DEGREE_DECIMALS = 12;

/** Why these numbers are no circle on the globe, or undefined when they are one. */
export function circleProblem({ longitude, latitude, radius }: Circle): { argument: keyof Circle; reason: string } | undefined {
  if (longitude < -180 || longitude > 180) return { argument: 'longitude', reason: `the longitude must be between -180 and 180, got ${longitude}` };
  if (latitude < -90 || latitude > 90) return { argument: 'latitude', reason: `the latitude must be between -90 and 90, got ${latitude}` };
  if (!(radius > 0)) return { argument: 'radius', reason: `the radius (in meters) must be greater than 0, got ${radius}` };
  return undefined;
}

/**
 * SQL that is true when the Point at `path` (members from the document root) lies within the
 * circle, its edge included. Anything else at the path (missing, not a Point, coordinates that are
 * no numbers or out of range) does not match and never raises: the jsonpath selects only valid
 * coordinates, in silent mode, so the casts below only ever see numbers of a valid range.
 */
export function withinCircleSql(path: readonly string[], circle: Circle, params: SqlParameters): string {
  const field = path.map((segment) => `.${jsonPathString(segment)}`).join('');
  // Lax and indexable (GIN jsonb_path_ops): narrows the rows to those with a Point first.
  const hasPoint = params.add(`$${field}."type" ? (@ == "Point")`);
  const coordinates = params.add(
    `strict $${field} ? (@."type" == "Point")."coordinates" ? (@.size() >= 2 && @[0] >= -180 && @[0] <= 180 && @[1] >= -90 && @[1] <= 90)`,
  );
  const longitude = `${params.add(circle.longitude.toFixed(DEGREE_DECIMALS))}::float8`;
  const latitude = `${params.add(circle.latitude.toFixed(DEGREE_DECIMALS))}::float8`;
  const radius = `${params.add(String(circle.radius))}::float8`;
  const stored = (index: 0 | 1): string => `round((p.c->>${index})::numeric, ${DEGREE_DECIMALS})::float8`;
  const distance = haversine({ longitude: stored(0), latitude: stored(1) }, { longitude, latitude });
  return `(r.doc @? ${hasPoint}::jsonpath AND EXISTS (SELECT 1 FROM jsonb_path_query(r.doc, ${coordinates}::jsonpath, '{}', true) AS p(c) WHERE ${distance} <= ${radius}))`;
}

interface SqlPoint {
  longitude: string;
  latitude: string;
}

/** Great-circle distance in meters between two points given as SQL float8 expressions in degrees. */
function haversine(a: SqlPoint, b: SqlPoint): string {
  const halfChord = `power(sin(radians(${a.latitude} - ${b.latitude}) / 2), 2) + cos(radians(${a.latitude})) * cos(radians(${b.latitude})) * power(sin(radians(${a.longitude} - ${b.longitude}) / 2), 2)`;
  // Rounding can push the term a hair above 1 for antipodal points; asin would then raise.
  return `(2 * ${EARTH_RADIUS_METERS} * asin(sqrt(least(1, ${halfChord}))))`;
}

/**
 * The same test in process, for predicates evaluated outside SQL (ExtensionTrigger.condition): is
 * `value` a GeoJSON Point whose coordinates lie within the circle?
 */
export function isPointWithinCircle(value: unknown, circle: Circle): boolean {
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'Point') return false;
  const coordinates = (value as { coordinates?: unknown }).coordinates;
  if (!Array.isArray(coordinates) || coordinates.length < 2) return false;
  const [longitude, latitude] = coordinates as unknown[];
  if (typeof longitude !== 'number' || typeof latitude !== 'number' || circleProblem({ longitude, latitude, radius: 1 }) !== undefined) return false;
  return distanceInMeters({ longitude, latitude }, circle) <= circle.radius;
}

interface Point {
  longitude: number;
  latitude: number;
}

function distanceInMeters(a: Point, b: Point): number {
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  const halfChord =
    Math.sin(radians(a.latitude - b.latitude) / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(radians(a.longitude - b.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.sqrt(Math.min(1, halfChord)));
}
