import { ApiError } from '@herald/model';
import { describe, expect, it } from 'vitest';
import {
  compileQuery,
  MAX_SORT_PARAMETERS,
  MAX_WHERE_PARAMETERS,
  parsePaging,
  parseSort,
  type QueryParameters,
  type RawPaging,
  TOTAL_CAP,
} from '../../src/query/index.js';

function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.code).toBe('InvalidInput');
    return apiError;
  }
  throw new Error('expected a 400 InvalidInput');
}

const compile = (query: QueryParameters, first = 3) => compileQuery(query, first);

describe('compileQuery', () => {
  it('answers TRUE, unfiltered and ordered by id without parameters', () => {
    expect(compile({})).toEqual({
      whereSql: 'TRUE',
      orderBySql: 'r.id ASC',
      orderTerms: [{ sql: 'r.id', order: 'ASC' }],
      params: [],
      whereParamCount: 0,
      filtered: false,
    });
  });

  it('numbers placeholders from firstParam in order of appearance, where before sort', () => {
    const compiled = compile({ where: ['key = "a"', 'version > 2'], sort: ['name.en desc'] }, 5);
    expect(compiled.whereSql).toBe('(r.key = $5::text) AND (r.version > $6::numeric)');
    expect(compiled.orderBySql).toBe("NULLIF(r.doc -> $7::text -> $8::text, 'null'::jsonb) DESC NULLS FIRST, r.id DESC");
    expect(compiled.params).toEqual(['a', '2', 'name', 'en']);
    // A count query binds only the predicate's values.
    expect(compiled.whereParamCount).toBe(2);
    expect(compiled.filtered).toBe(true);
  });

  it('puts user values and doc field names only into parameters, never into SQL text', () => {
    const hostile = `x"; DROP TABLE resources; -- ' $1 \\u0027`;
    const compiled = compile({
      where: [`secretField = "${hostile.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`, 'key in :k and otherField(inner contains any :k)'],
      vars: { k: ["') or 1=1 --", 'DROP'] },
      sort: ['sortField.deeper asc'],
    });
    const sql = `${compiled.whereSql} ORDER BY ${compiled.orderBySql}`;
    for (const text of ['secretField', 'otherField', 'inner', 'DROP', 'or 1=1', 'sortField', 'deeper']) {
      expect(sql).not.toContain(text);
    }
    // The SQL is made of a fixed vocabulary: column names, placeholders, operators and keywords.
    expect(sql.replace(/\$\d+/g, '')).toMatch(/^[A-Za-z_.:()\s,=<>@?'-]+$/);
    expect(compiled.params).toContain("') or 1=1 --");
    expect(JSON.stringify(compiled.params)).toContain('secretField');
  });

  it('binds timestamps as UTC timestamptz text and versions as numeric text', () => {
    const compiled = compile({ where: ['createdAt >= "2024-01-31" and lastModifiedAt < "2024-01-31T10:20:30.1234567+01:00" and version = 007'] });
    expect(compiled.params).toEqual(['2024-01-31T00:00:00Z', '2024-01-31T10:20:30.123456+01:00', '7']);
    expect(compiled.whereSql).toContain('r.created_at >= $3::timestamptz');
    expect(compiled.whereSql).toContain('r.version = $5::numeric');
  });

  it('compiles doc predicates to one jsonpath parameter each', () => {
    const compiled = compile({ where: ['name(en = "x") and not(tags is empty)'] });
    expect(compiled.whereSql).toBe('(((r.doc @? $3::jsonpath) AND (NOT coalesce((r.doc @? $4::jsonpath), false))))');
    expect(compiled.params).toEqual(['$ ? (exists(@."name" ? (exists(@."en" ? (@ == "x")))))', '$ ? ((@."tags".type() == "array" && @."tags".size() == 0))']);
  });

  // A keyless resource makes `r.key = $3` NULL, and `NOT NULL` is NULL: not(key = "x") dropped it.
  it('negates column comparisons two-valued, and keeps positive ones plain for the indexes', () => {
    expect(compile({ where: ['key = "a"'] }).whereSql).toBe('(r.key = $3::text)');
    expect(compile({ where: ['not(key = "a")'] }).whereSql).toBe('((NOT coalesce(r.key = $3::text, false)))');
    expect(compile({ where: ['not(key in ("a") or not(version > 1))'] }).whereSql).toBe(
      '((NOT coalesce((r.key IN ($3::text) OR (NOT coalesce(r.version > $4::numeric, false))), false)))',
    );
  });

  it('escapes strings inside jsonpath literals', () => {
    const compiled = compile({ where: ['a = :v'], vars: { v: ['q"b\\s\n\u0001é'] } });
    expect(compiled.params).toEqual(['$ ? (exists(@."a" ? (@ == "q\\"b\\\\s\\u000a\\u0001é")))']);
  });

  it.each([
    ['id = 5', 5, 'the field "id" needs a string but found a number'],
    ['key = true', 6, 'needs a string'],
    ['version = "3"', 10, 'the field "version" needs a number but found a string'],
    ['version = :v', 10, 'needs a number but found the variable :v = "three"'],
    ['createdAt > 5', 12, 'needs a DateTime string'],
    ['createdAt > "yesterday"', 12, 'needs a DateTime string'],
    ['createdAt > "2024-02-30"', 12, 'needs a DateTime string'],
    ['createdAt > "0000-01-01"', 12, 'needs a DateTime string'],
    ['createdAt > "2024-01-01T24:00:00Z"', 12, 'needs a DateTime string'],
    ['lastModifiedAt in ("2024-01-01", "2024-13-01")', 33, 'needs a DateTime string'],
    ['key(en = "x")', 0, 'the field "key" is not an object'],
  ])('rejects %j with a 400 at position %i', (where, position, fragment) => {
    const error = apiError(() => compile({ where: [where], vars: { v: ['three'] } }));
    expect(error.message).toContain(`at position ${position}:`);
    expect(error.message).toContain(fragment);
  });

  it('binds the numbers and path of within circle(…) as parameters', () => {
    const compiled = compile({ where: ['geoLocation within circle(13.4, 52.5, 1000)'] });
    expect(compiled.params).toEqual([
      '$."geoLocation"."type" ? (@ == "Point")',
      expect.stringContaining('strict $."geoLocation" ? (@."type" == "Point")."coordinates"'),
      '13.400000000000',
      '52.500000000000',
      '1000',
    ]);
    expect(compiled.whereSql).not.toMatch(/13\.4|52\.5|1000|geoLocation/);
  });

  it('rejects within circle(…) on a column and inside a nested predicate with a 400', () => {
    expect(apiError(() => compile({ where: ['key within circle(0, 0, 1)'] })).message).toContain('the field "key" is not a GeoJSON Point');
    expect(apiError(() => compile({ where: ['supplyChannel(geoLocation within circle(0, 0, 1))'] })).message).toContain(
      'within circle(…) is supported on top-level fields only',
    );
  });

  it('limits the number of where and sort parameters', () => {
    expect(() => compile({ where: Array.from({ length: MAX_WHERE_PARAMETERS }, () => 'a = 1') })).not.toThrow();
    apiError(() => compile({ where: Array.from({ length: MAX_WHERE_PARAMETERS + 1 }, () => 'a = 1') }));
    expect(() => compile({ sort: Array.from({ length: MAX_SORT_PARAMETERS }, () => 'a') })).not.toThrow();
    apiError(() => compile({ sort: Array.from({ length: MAX_SORT_PARAMETERS + 1 }, () => 'a') }));
  });

  it('treats firstParam below 1 as a programming error, not a user error', () => {
    expect(() => compileQuery({}, 0)).toThrow(RangeError);
  });
});

describe('sort', () => {
  it('parses path and direction, direction case-insensitive and asc by default', () => {
    expect(parseSort('name.en')).toEqual({ path: ['name', 'en'], direction: 'asc' });
    expect(parseSort('  custom.fields.size   DESC ')).toEqual({ path: ['custom', 'fields', 'size'], direction: 'desc' });
    expect(parseSort('createdAt Asc')).toEqual({ path: ['createdAt'], direction: 'asc' });
  });

  it('accepts every custom field name a Type accepts as a path segment, and binds it', () => {
    expect(parseSort('custom.fields.my-size desc')).toEqual({ path: ['custom', 'fields', 'my-size'], direction: 'desc' });
    expect(parseSort('custom.fields.2nd')).toEqual({ path: ['custom', 'fields', '2nd'], direction: 'asc' });
    expect(parseSort('custom.fields.-x_- asc').path).toEqual(['custom', 'fields', '-x_-']);
    expect(compile({ sort: ['custom.fields.my-size desc'] }, 1)).toMatchObject({
      orderBySql: "NULLIF(r.doc -> $1::text -> $2::text -> $3::text, 'null'::jsonb) DESC NULLS FIRST, r.id DESC",
      params: ['custom', 'fields', 'my-size'],
    });
  });

  it('uses columns for top-level fields and ends with the id tie-breaker in the last direction', () => {
    expect(compile({ sort: ['createdAt desc'] }).orderBySql).toBe('r.created_at DESC, r.id DESC');
    expect(compile({ sort: ['key asc', 'version desc'] }).orderBySql).toBe('r.key ASC, r.version DESC, r.id DESC');
    expect(compile({ sort: ['lastModifiedAt'] }).orderBySql).toBe('r.last_modified_at ASC, r.id ASC');
  });

  it('adds no tie-breaker when id is already sorted on', () => {
    expect(compile({ sort: ['id desc'] }).orderBySql).toBe('r.id DESC');
    expect(compile({ sort: ['id asc', 'key desc'] }).orderBySql).toBe('r.id ASC, r.key DESC');
  });

  it('sorts nested paths that start with a column name inside the document', () => {
    expect(compile({ sort: ['key.en'] }, 1)).toMatchObject({
      orderBySql: "NULLIF(r.doc -> $1::text -> $2::text, 'null'::jsonb) ASC NULLS LAST, r.id ASC",
      params: ['key', 'en'],
    });
  });

  it.each([
    ['', 'expected a field path'],
    ['   ', 'expected a field path'],
    ['name.en up', 'expected "asc" or "desc"'],
    ['name.en asc desc', 'expected "<field path> [asc|desc]"'],
    ['name..en', 'is not a field name'],
    ['.name', 'is not a field name'],
    ['name.en;drop', 'is not a field name'],
    ["name');DROP--", 'is not a field name'],
    ["name'); DROP TABLE resources; --", 'expected'],
    ['lineItems[0].name', 'is not a field name'],
    ['a,b', 'is not a field name'],
    ['a.b.c.d.e.f.g.h.i.j.k', 'more than 10 segments'],
    [`${'a'.repeat(600)}`, 'longer than 512'],
  ])('rejects %j', (value, fragment) => {
    const error = apiError(() => compile({ sort: [value] }));
    expect(error.message).toContain(fragment);
    expect(error.errors[0]?.parameter).toBe('sort');
  });
});

describe('parsePaging (§4.4.3, §8)', () => {
  it('applies the defaults', () => {
    expect(parsePaging({})).toEqual({ limit: 20, offset: 0, withTotal: true });
    expect(parsePaging()).toEqual({ limit: 20, offset: 0, withTotal: true });
  });

  it('accepts the bounds as strings and as numbers', () => {
    expect(parsePaging({ limit: '1', offset: '0', withTotal: 'false' })).toEqual({ limit: 1, offset: 0, withTotal: false });
    expect(parsePaging({ limit: 500, offset: 10_000, withTotal: true })).toEqual({ limit: 500, offset: 10_000, withTotal: true });
    expect(parsePaging({ withTotal: 'TRUE' }).withTotal).toBe(true);
  });

  it.each([
    ['limit', { limit: '0' }],
    ['limit', { limit: '501' }],
    ['limit', { limit: '1.5' }],
    ['limit', { limit: '-1' }],
    ['limit', { limit: 'ten' }],
    ['limit', { limit: '' }],
    ['limit', { limit: ' 5' }],
    ['limit', { limit: '1e2' }],
    ['limit', { limit: 2.5 }],
    ['limit', { limit: Number.NaN }],
    ['offset', { offset: '10001' }],
    ['offset', { offset: '-1' }],
    ['offset', { offset: '99999999999999999999' }],
    ['offset', { offset: 0.5 }],
    ['withTotal', { withTotal: 'yes' }],
    ['withTotal', { withTotal: '' }],
  ] as const)('rejects %s in %j', (parameter, raw) => {
    const error = apiError(() => parsePaging(raw));
    expect(error.errors[0]?.parameter).toBe(parameter);
    expect(error.message).toContain(parameter);
  });

  // Callers outside TypeScript's reach (a route passing its raw query) send repeated parameters as arrays.
  it.each([
    ['limit', { limit: ['1', '2'] }],
    ['offset', { offset: ['0'] }],
    ['withTotal', { withTotal: ['true', 'false'] }],
    ['withTotal', { withTotal: 1 }],
    ['withTotal', { withTotal: null }],
  ])('rejects the non-scalar or mistyped %s in %j with a 400', (parameter, raw) => {
    const error = apiError(() => parsePaging(raw as unknown as RawPaging));
    expect(error.errors[0]?.parameter).toBe(parameter);
    expect(error.errors[0]).not.toHaveProperty('invalidValue', expect.any(Array));
  });

  it('caps totals of filtered queries at the maximum offset (§4.4.4)', () => {
    expect(TOTAL_CAP).toBe(10_000);
  });
});
