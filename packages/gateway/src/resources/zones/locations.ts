import { ApiError, duplicateField, invalidInput, invalidOperation } from '@herald/model';
import type { Queryable } from '@herald/store';
import { describeLocation, location, sameLocation, type Location } from './location.js';
import { ZONE_TYPE_ID } from './zone.js';

/** Bounds a Zone's document (hostile bodies): far more than the world's countries and their states. */
export const MAX_LOCATIONS = 1000;

/** A Location already listed: DuplicateField, as the reference answers a duplicate TaxRate country and state. */
export function duplicateLocation(where: Location): ReturnType<typeof duplicateField> {
  return duplicateField('locations', where);
}

/** ZoneDraft.locations: Locations, each once (absent: none). */
export function locationList(value: unknown, field: string): Location[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_LOCATIONS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_LOCATIONS} Locations.`, { field });
  }
  const result: Location[] = [];
  for (const [index, item] of value.entries()) {
    const checked = location(item, `${field}[${index}]`);
    if (result.some((known) => sameLocation(known, checked))) throw duplicateLocation(checked);
    result.push(checked);
  }
  return result;
}

/** removeLocation of a Location the Zone does not have: nothing to remove is a mistake, not a no-op. */
export function withoutLocation(locations: readonly Location[], removed: Location, zoneName: string): Location[] {
  if (!locations.some((known) => sameLocation(known, removed))) {
    throw invalidOperation(`The Zone '${zoneName}' has no Location ${describeLocation(removed)}.`);
  }
  return locations.filter((known) => !sameLocation(known, removed));
}

/** A jsonpath condition on one entry of `locations` (values as JSON strings, valid jsonpath literals). */
function condition(where: Location): string {
  const state = where.state === undefined ? '!(exists(@.state))' : `@.state == ${JSON.stringify(where.state)}`;
  return `(@.country == ${JSON.stringify(where.country)} && ${state})`;
}

/**
 * "A location can only be assigned to one Zone" (types/zone/Location.raml): 400 DuplicateField when
 * another Zone of the project (not `selfId`) lists one of `locations`, found in one statement. A
 * read, not under a lock (the versioned template writes in one statement): two requests adding the
 * same Location to two Zones at the same moment can both pass, an accepted race as for the States'
 * type checks.
 */
export async function assertLocationsFree(db: Queryable, projectKey: string, locations: readonly Location[], selfId?: string): Promise<void> {
  if (locations.length === 0) return;
  const found = await db.query<{ name: string; locations: Location[] }>(
    `SELECT doc ->> 'name' AS name, doc -> 'locations' AS locations FROM resources
      WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @? $4::jsonpath LIMIT 1`,
    [projectKey, ZONE_TYPE_ID, selfId ?? '', `$.locations[*] ? (${locations.map(condition).join(' || ')})`],
  );
  const holder = found.rows[0];
  const taken = holder === undefined ? undefined : locations.find((where) => holder.locations.some((held) => sameLocation(held, where)));
  if (holder !== undefined && taken !== undefined) {
    throw new ApiError(400, {
      code: 'DuplicateField',
      message: `The Location ${describeLocation(taken)} belongs to the Zone '${holder.name}' already; a Location can only be assigned to one Zone.`,
      field: 'locations',
      duplicateValue: taken,
    });
  }
}
