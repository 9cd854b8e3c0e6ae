import { describe, expect, it } from 'vitest';
import { isPointWithinCircle, parsePredicate } from '../../src/query/index.js';
import { ROWS } from './fixtures.js';

/**
 * `within circle(…)` evaluated in process (ExtensionTrigger.condition uses it) agrees with the SQL
 * the compiler builds: the same circles select the same fixture rows as in predicates.test.ts.
 */
const CASES: Array<{ where: string; ids: string[] }> = [
  { where: 'geoLocation within circle(13.37774, 52.51627, 3)', ids: ['s1'] },
  { where: 'geoLocation within circle(13.37774, 52.51627, 2.9)', ids: [] },
  { where: 'geoLocation within circle(13.37774, 52.51627, 26000)', ids: ['s1', 's2'] },
  { where: 'geoLocation within circle(151.2093, -33.8688, 1)', ids: ['s4'] },
  { where: 'geoLocation within circle(-179.9, 0, 22300)', ids: ['s6'] },
  { where: 'geoLocation within circle(-179.9, 0, 22200)', ids: [] },
  { where: 'geoLocation within circle(-28.7907, 33.8688, 20015115)', ids: ['s1', 's2', 's4', 's6'] },
  { where: 'area within circle(-160, 52.51628, 1000)', ids: [] },
];

function matchingIds(where: string): string[] {
  const predicate = parsePredicate(where);
  if (predicate.kind !== 'field' || predicate.test.kind !== 'withinCircle') throw new Error(`not a circle: ${where}`);
  const { field, test } = predicate;
  return ROWS.filter((row) => isPointWithinCircle(row.fields[field], test.circle)).map((row) => row.id);
}

describe('isPointWithinCircle', () => {
  it.each(CASES)('$where → $ids', ({ where, ids }) => {
    expect(matchingIds(where)).toEqual(ids);
  });

  it('is false for anything but a GeoJSON Point with two numbers in range', () => {
    const circle = { longitude: 0, latitude: 0, radius: 1 };
    for (const value of [
      undefined,
      null,
      5,
      'Point',
      [0, 0],
      { type: 'Point' },
      { type: 'Point', coordinates: [0] },
      { type: 'Point', coordinates: ['0', '0'] },
    ]) {
      expect(isPointWithinCircle(value, circle)).toBe(false);
    }
    expect(isPointWithinCircle({ type: 'Point', coordinates: [0, 0] }, circle)).toBe(true);
  });
});
