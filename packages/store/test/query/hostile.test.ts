/**
 * Property tests with hostile input: whatever `where`, `var.*` and `sort` a client sends, the
 * compiler either rejects it with a 400 InvalidInput, or produces SQL that PostgreSQL (PGlite here)
 * runs without error and that returns only rows of the queried project and type (its count query
 * too, binding only the predicate's parameters). Two more properties prove that values cannot
 * escape their literals: arbitrary strings and numbers round-trip exactly through variables and
 * through escaped string literals.
 */
import { ApiError } from '@herald/model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/database/types.js';
import { compileQuery, type QueryParameters } from '../../src/query/index.js';
import { unsupportedTextReason } from '../../src/query/values.js';
import { ALL_IDS, openSeededDatabase, PROJECT, scopedSelect, TYPE } from './fixtures.js';

const INJECTIONS = [
  '"; DROP TABLE resources; --',
  "') or 1=1 --",
  "' OR '1'='1",
  '1; SELECT pg_sleep(10)',
  '$1',
  '$$ || $$',
  "'::jsonpath",
  '$ ? (@ == 1) || true',
  '" || @ == "x',
  '\\" || true || \\"',
  ')) or ((1=1',
  'r.project_key',
  '*/ OR /*',
  '\u0000',
  '\ud800',
  '😀\u202e',
];

const FIELDS = [
  ...['id', 'key', 'version', 'createdAt', 'lastModifiedAt'],
  ...['name', 'en', 'de', 'languages', 'lineItems', 'quantity', 'custom', 'fields', 'size', 'score', 'code', 'active', 'tags'],
  ...['not', 'and', 'or', 'in', 'is', 'contains', 'empty', 'type', 'last', 'size', 'obj', 'r', 'doc', 'project_key', '_x1'],
  ...['geoLocation', 'within', 'circle', 'coordinates'],
];

/** Any UTF-16 code unit, so lone surrogates and NUL appear as often as anything else. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
  fc.constantFrom(...INJECTIONS),
);

/** A string literal as a client would write it: JSON escapes, sometimes raw and broken. */
const stringLiteral = fc.oneof(
  { weight: 4, arbitrary: anyText.map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: anyText.map((text) => `"${text}"`) },
  { weight: 1, arbitrary: fc.constantFrom('"Store 1"', '"en"', '"2024-01-03"', '"2024-01-03T00:00:00+01:00"', '"42"', '"true"') },
);

const numberLiteral = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
  fc.integer().map(String),
  fc.constantFrom('1e400', '-0', '007', '1.5e-10', '1e-999', '-', '1.', '.5', '0x10', `1${'0'.repeat(70)}`),
);

const value = fc.oneof(
  { weight: 4, arbitrary: stringLiteral },
  { weight: 3, arbitrary: numberLiteral },
  { weight: 2, arbitrary: fc.constantFrom('true', 'FALSE', ':v', ':keys') },
  { weight: 1, arbitrary: fc.constantFrom(':missing', ':', 'null', 'x', '') },
);

const list = fc.oneof(
  { weight: 3, arbitrary: fc.array(value, { minLength: 1, maxLength: 4 }).map((values) => `(${values.join(', ')})`) },
  { weight: 2, arbitrary: fc.constantFrom(':v', ':keys') },
  { weight: 1, arbitrary: fc.constantFrom('()', ':missing', '("a",)', '"a"') },
);

/** Around the valid ranges (longitude, latitude, radius in meters), or anything. */
const circleArguments = fc.oneof(
  fc
    .tuple(fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -1, max: 3e7, noNaN: true }))
    .map((numbers) => numbers.map(String)),
  fc.array(fc.oneof(numberLiteral, value), { maxLength: 4 }),
);

const test = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(fc.constantFrom('=', '!=', '<>', '<', '<=', '>', '>='), value).map(([op, v]) => `${op} ${v}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('==', '!', '=>', '=<', ''), value).map(([op, v]) => `${op} ${v}`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('in', 'not in', 'NOT IN', 'contains any', 'contains all', 'Contains All', 'contains'), list)
      .map(([op, l]) => `${op} ${l}`),
  },
  { weight: 2, arbitrary: fc.constantFrom('is empty', 'is not empty', 'is defined', 'IS NOT DEFINED', 'is', 'is null') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('within circle', 'WITHIN Circle', 'within square', 'within'), circleArguments)
      .map(([op, args]) => `${op}(${args.join(', ')})`),
  },
);

/** Predicates from the real grammar (mostly valid), with nesting, chains and groups. */
const { predicate } = fc.letrec<{ predicate: string }>((tie) => ({
  predicate: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...FIELDS), test).map(([field, t]) => `${field} ${t}`),
    fc.tuple(fc.constantFrom(...FIELDS), tie('predicate')).map(([field, inner]) => `${field}(${inner})`),
    fc.tuple(tie('predicate'), fc.constantFrom(' and ', ' or ', ' AND ', ' Or ', ' '), tie('predicate')).map(([a, op, b]) => a + op + b),
    tie('predicate').map((inner) => `not(${inner})`),
    tie('predicate').map((inner) => `(${inner})`),
  ),
}));

/** Random edits of a predicate: unbalanced parentheses, cut strings, stray characters. */
const mutated = fc
  .tuple(predicate, fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constant(''), anyCodeUnit, fc.constantFrom('(', ')', '"', '\\', ':', ','))), { maxLength: 3 }))
  .map(([text, edits]) =>
    edits.reduce((current, [at, insert]) => {
      const position = current.length === 0 ? 0 : at % current.length;
      return insert === '' ? current.slice(0, position) + current.slice(position + 1) : current.slice(0, position) + insert + current.slice(position);
    }, text),
  );

const deeplyNested = fc
  .tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom('(', 'not(', 'a(', 'lineItems('), fc.integer({ min: -2, max: 2 }))
  .map(([depth, opener, imbalance]) => `${opener.repeat(depth)}quantity > 2${')'.repeat(Math.max(0, depth + imbalance))}`);

const where = fc.oneof(
  { weight: 10, arbitrary: predicate },
  { weight: 3, arbitrary: mutated },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: deeplyNested },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS).map((text) => `name(en = ${text})`) },
);

const sort = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 4 }), fc.constantFrom('', ' asc', ' desc', ' DESC', ' Asc', '\tdesc'))
      .map(([path, direction]) => path.join('.') + direction),
  },
  { weight: 1, arbitrary: fc.constantFrom('name..en', 'name.en up', 'a b c', '', '.x', 'x.', 'lineItems[0].name') },
  { weight: 1, arbitrary: anyText },
);

const varValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('true', 'false', '42', '-1.5', '2024-01-03', 'store-1', 'en', 'Store 1') },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: numberLiteral },
);

const vars = fc.record(
  {
    v: fc.array(varValue, { minLength: 1, maxLength: 1 }),
    keys: fc.array(varValue, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: [] },
);

const query = fc.record({
  where: fc.oneof({ weight: 4, arbitrary: fc.array(where, { minLength: 1, maxLength: 1 }) }, fc.array(where, { maxLength: 3 })),
  vars,
  sort: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(sort, { maxLength: 2 })),
});

describe('hostile where, var and sort parameters on PGlite', () => {
  let db: Database;
  const outcomes = { rejected: 0, executed: 0, matched: 0 };

  beforeAll(async () => {
    db = await openSeededDatabase('pglite://memory');
  });
  afterAll(async () => {
    await db?.close();
  });

  /** The property itself: a 400, or SQL that runs and stays inside the project and type. */
  async function check(parameters: QueryParameters): Promise<void> {
    let select: ReturnType<typeof scopedSelect>;
    try {
      select = scopedSelect(parameters);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 400) throw error;
      outcomes.rejected++;
      return;
    }
    const result = await db.query<{ id: string; project_key: string; type_id: string }>(select.sql, select.params);
    const counted = await db.query<{ n: number }>(select.countSql, select.countParams);
    expect(counted.rows[0]?.n).toBe(result.rows.length);
    outcomes.executed++;
    if (result.rows.length > 0) outcomes.matched++;
    for (const row of result.rows) {
      expect(row.project_key).toBe(PROJECT);
      expect(row.type_id).toBe(TYPE);
      expect(ALL_IDS).toContain(row.id);
    }
  }

  it('rejects with a 400 or runs scoped SQL without error, for thousands of inputs', async () => {
    await fc.assert(fc.asyncProperty(query, check), { numRuns: 6_000 });
    // The generators must reach the database often, or the property proves little.
    expect(outcomes.executed).toBeGreaterThan(1_000);
    expect(outcomes.matched).toBeGreaterThan(250);
    expect(outcomes.rejected).toBeGreaterThan(1_500);
  });

  it('survives the classic injection payloads in every position', async () => {
    for (const payload of INJECTIONS) {
      const literal = JSON.stringify(payload);
      for (const text of [
        payload,
        `key = ${literal}`,
        `name(en = ${literal})`,
        `key = "${payload}"`,
        `name(en = "${payload}")`,
        `${payload} = 1`,
        `key in (${literal}, :v)`,
      ]) {
        await check({ where: [text], vars: { v: [payload] }, sort: [payload] });
        await check({ where: [text], vars: { v: [payload] } });
      }
    }
    const count = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM resources');
    expect(count.rows[0]?.n).toBe(ALL_IDS.length + 3);
  });

  it('rejects maximal nesting and length quickly with a 400', async () => {
    await check({ where: ['('.repeat(100_000)] });
    await check({ where: [`${'not('.repeat(2_000)}a = 1${')'.repeat(2_000)}`] });
    await check({ where: [`a = "${'x'.repeat(20_000)}"`] });
    await check({ where: ['a = 1 or '.repeat(1_100).slice(0, 9_990) + 'a = 1'] });
    expect(outcomes.rejected).toBeGreaterThan(0);
  });

  describe('values cannot escape their literals', () => {
    const PROBE_TYPE = 'probe';

    /** Inserts one document with `probe` = value in its own type and returns the ids the query finds. */
    async function roundTrip(probe: unknown, where: string, queryVars: QueryParameters['vars'] = {}): Promise<string[]> {
      await db.query('DELETE FROM resources WHERE type_id = $1', [PROBE_TYPE]);
      await db.query(
        `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
         VALUES ($1, $2, 'probe-1', NULL, 1, now(), now(), $3::jsonb)`,
        [PROJECT, PROBE_TYPE, JSON.stringify({ probe, other: 'other' })],
      );
      const compiled = compileQuery({ where: [where], vars: queryVars }, 3);
      const result = await db.query<{ id: string }>(`SELECT r.id FROM resources r WHERE r.project_key = $1 AND r.type_id = $2 AND ${compiled.whereSql}`, [
        PROJECT,
        PROBE_TYPE,
        ...compiled.params,
      ]);
      return result.rows.map((row) => row.id);
    }

    /** Strings PostgreSQL can store: well-formed UTF-16 without NUL. */
    const storableText = fc
      .oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: anyCodeUnit, maxLength: 30 }), fc.constantFrom(...INJECTIONS))
      .filter((text) => unsupportedTextReason(text) === undefined);

    it('matches exactly the same string through an escaped literal and through a variable', async () => {
      await fc.assert(
        fc.asyncProperty(storableText, storableText, async (stored, other) => {
          const literal = JSON.stringify(stored);
          expect(await roundTrip(stored, `probe = ${literal}`)).toEqual(['probe-1']);
          expect(await roundTrip(stored, 'probe = :v', { v: [stored] })).toEqual(['probe-1']);
          if (other !== stored) expect(await roundTrip(stored, `probe = ${JSON.stringify(other)}`)).toEqual([]);
          // The neighbour field must not be reachable by breaking out of the literal.
          expect(await roundTrip(stored, `probe = ${literal} and other = "x"`)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });

    it('matches exactly the same number through a literal', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), async (n) => {
          expect(await roundTrip(n, `probe = ${String(n)}`)).toEqual(['probe-1']);
          expect(await roundTrip(n, `probe >= ${String(n)} and probe <= ${String(n)}`)).toEqual(['probe-1']);
          expect(await roundTrip(String(n), `probe = ${String(n)}`)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });
  });
});
