/**
 * A fixed set of documents for the low-level query suites. They are inserted straight into the
 * `resources` table (this suite tests SQL, not the document store), in the project and type the
 * queries ask for, and again under another project and another type with values that match
 * almost every predicate, so that a scope leak shows up as an extra id.
 */
import { openDatabase } from '../../src/database/open.js';
import type { Database } from '../../src/database/types.js';
import { compileQuery, type QueryParameters } from '../../src/query/index.js';

export const PROJECT = 'p1';
export const TYPE = 'store';

export interface Row {
  id: string;
  key: string | null;
  version: number;
  createdAt: string;
  lastModifiedAt: string;
  fields: Record<string, unknown>;
}

export const ROWS: readonly Row[] = [
  {
    id: 's1',
    key: 'store-1',
    version: 1,
    createdAt: '2024-01-01T00:00:00.000Z',
    lastModifiedAt: '2024-02-01T00:00:00.000Z',
    fields: {
      name: { en: 'Store 1', de: 'Laden 1' },
      languages: ['en', 'de'],
      score: 10,
      code: '42',
      active: true,
      tags: [],
      lineItems: [
        { quantity: 1, name: { en: 'apple' } },
        { quantity: 5, name: { en: 'pear' } },
      ],
      // Names a Type accepts but that are no identifiers (`^[A-Za-z0-9_-]{2,36}$`).
      custom: { fields: { size: 3, color: 'red', 'my-size': 1, '2nd': 2 } },
      // Berlin, Brandenburger Tor.
      geoLocation: { type: 'Point', coordinates: [13.3777, 52.51628] },
    },
  },
  {
    id: 's2',
    key: 'store-2',
    version: 2,
    createdAt: '2024-01-02T00:00:00.000Z',
    lastModifiedAt: '2024-02-02T00:00:00.000Z',
    fields: {
      name: { en: 'Say "hi"', de: 'Sag hallo' },
      languages: ['de'],
      score: -5,
      code: 42,
      active: false,
      tags: ['x', 'y'],
      lineItems: [{ quantity: 3, name: { en: 'apple' } }],
      custom: { fields: { size: 5, color: 'blue', 'my-size': 9, '2nd': 1 } },
      // Potsdam, about 25 km south-west of s1.
      geoLocation: { type: 'Point', coordinates: [13.0645, 52.3906] },
    },
  },
  {
    id: 's3',
    key: 'store-3',
    version: 3,
    createdAt: '2024-01-03T00:00:00.000Z',
    lastModifiedAt: '2024-02-03T00:00:00.000Z',
    fields: {
      name: { en: 'Store 3' },
      languages: 'en',
      score: 4.5,
      code: 'abc',
      active: true,
      tags: null,
      lineItems: [],
      note: null,
      path: 'a\\b',
      // Berlin again, but the coordinates are no numbers.
      geoLocation: { type: 'Point', coordinates: ['13.3777', '52.51628'] },
      tiny: { type: 'Point', coordinates: [1e-200, 5e-324] },
    },
  },
  {
    id: 's4',
    key: null,
    version: 1,
    createdAt: '2024-01-04T00:00:00.000Z',
    lastModifiedAt: '2024-02-04T00:00:00.000Z',
    fields: {
      name: { en: 'Ünïcødé 名前 😀' },
      languages: [],
      score: -0.5,
      tags: ['x'],
      lineItems: [{ quantity: 2 }, { name: { en: 'pear' } }],
      custom: { fields: { size: '3', color: 'red' } },
      // Sydney, with an altitude (a GeoJSON position may have three numbers).
      geoLocation: { type: 'Point', coordinates: [151.2093, -33.8688, 58] },
    },
  },
  {
    id: 's5',
    key: 'store-5',
    version: 10,
    createdAt: '2024-01-05T00:00:00.000Z',
    lastModifiedAt: '2024-02-05T00:00:00.000Z',
    fields: {
      name: { en: 'store 5' },
      languages: ['en', 'fr'],
      score: 100,
      code: 'true',
      active: 'true',
      custom: { fields: {} },
      // Berlin's coordinates, but no Point; then out of range.
      geoLocation: [{ type: 'Polygon', coordinates: [13.3777, 52.51628] }],
      area: { type: 'Point', coordinates: [200, 52.51628] },
    },
  },
  {
    id: 's6',
    key: 'store-6',
    version: 5,
    // The same instant as s5: sorts by createdAt need the id tie-breaker.
    createdAt: '2024-01-05T00:00:00.000Z',
    lastModifiedAt: '2024-02-06T00:00:00.000Z',
    fields: {
      name: { en: 'Store 6' },
      lineItems: [
        { quantity: 10, name: { en: 'apple' } },
        { quantity: 1, name: { en: 'kiwi' } },
      ],
      // Just west of the antimeridian, on the equator.
      geoLocation: { type: 'Point', coordinates: [179.9, 0] },
    },
  },
];

export const ALL_IDS = ROWS.map((row) => row.id);

/** Rows outside the queried scope that match nearly everything the suites ask for. */
function decoys(): Array<{ project: string; type: string; row: Row }> {
  const greedy: Row['fields'] = {
    name: { en: 'Store 1', de: 'Sag hallo' },
    languages: ['en', 'de', 'fr'],
    score: 10,
    code: 42,
    active: true,
    tags: [],
    lineItems: [{ quantity: 10, name: { en: 'apple' } }],
    custom: { fields: { size: 3, color: 'red', 'my-size': 9, '2nd': 2 } },
    geoLocation: { type: 'Point', coordinates: [13.3777, 52.51628] },
  };
  const row = (id: string, key: string): Row => ({
    id,
    key,
    version: 3,
    createdAt: '2024-01-03T00:00:00.000Z',
    lastModifiedAt: '2024-02-01T00:00:00.000Z',
    fields: greedy,
  });
  return [
    // Same ids as the real rows too: only the scope tells them apart.
    { project: 'p2', type: TYPE, row: row('s1', 'store-1') },
    { project: 'p2', type: TYPE, row: row('x-other-project', 'store-2') },
    { project: PROJECT, type: 'channel', row: row('x-other-type', 'store-1') },
  ];
}

async function insert(db: Database, project: string, type: string, row: Row): Promise<void> {
  const doc = {
    id: row.id,
    ...(row.key === null ? {} : { key: row.key }),
    version: row.version,
    createdAt: row.createdAt,
    lastModifiedAt: row.lastModifiedAt,
    ...row.fields,
  };
  await db.query(
    `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8::jsonb)`,
    [project, type, row.id, row.key, row.version, row.createdAt, row.lastModifiedAt, JSON.stringify(doc)],
  );
}

/** Opens a fresh database (its own, on PostgreSQL) and fills it with the fixture rows. */
export async function openSeededDatabase(url: string): Promise<Database> {
  const db = await openDatabase(url);
  for (const row of ROWS) await insert(db, PROJECT, TYPE, row);
  for (const decoy of decoys()) await insert(db, decoy.project, decoy.type, decoy.row);
  return db;
}

/**
 * The scope the store adds: parameters $1 and $2, the compiled query from $3 on. Like the store, the
 * count binds only the predicate's parameters.
 */
export function scopedSelect(query: QueryParameters): { sql: string; params: unknown[]; countSql: string; countParams: unknown[] } {
  const compiled = compileQuery(query, 3);
  const where = `r.project_key = $1 AND r.type_id = $2 AND (${compiled.whereSql})`;
  const params = [PROJECT, TYPE, ...compiled.params];
  return {
    sql: `SELECT r.id, r.project_key, r.type_id FROM resources r WHERE ${where} ORDER BY ${compiled.orderBySql}`,
    params,
    countSql: `SELECT count(*)::int AS n FROM resources r WHERE ${where}`,
    countParams: params.slice(0, 2 + compiled.whereParamCount),
  };
}

/** Ids the query returns, in the order it returns them. */
export async function queryIds(db: Database, query: QueryParameters): Promise<string[]> {
  const { sql, params } = scopedSelect(query);
  const result = await db.query<{ id: string }>(sql, params);
  return result.rows.map((row) => row.id);
}
