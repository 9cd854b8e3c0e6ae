/**
 * Hostile query parameters through HTTP (§4.4, §8): thousands of random, malformed and malicious
 * `where`, `var.*`, `sort`, `expand`, `limit`, `offset` and `withTotal` values sent to
 * `GET /{projectKey}/stores` with a real token for project A. The properties:
 *
 * - every answer is a 200 or a 400 in the error shape `{statusCode, message, errors: [{code,
 *   message}]}` — never a 500 (nor anything else; the one exception is §8's block of requests
 *   whose URL plus headers exceed about 15 KB, which must then be a 431 in the same shape);
 * - a 200 holds only stores of project A: project B is seeded with stores (and a Type) whose
 *   keys, names and fields match the same broad predicates, and its ids and a marker string in
 *   its documents must never appear anywhere in an answer for A (expanded references included).
 *
 * Runs on the database `startTestGateway` picks (PGlite, or PostgreSQL with DATABASE_URL).
 * Values are URL-encoded with URLSearchParams. Run time is bounded by `numRuns`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { get, isErrorShape, post, type Json, type Params } from './fixtures.js';

const A = 'hostile-a';
const B = 'hostile-b';
const MARKER = 'B-SECRET-MARKER';
/** §8 / guards.ts: URL plus headers longer than this are blocked with a 431. */
const MAX_URL_AND_HEADERS_BYTES = 15 * 1024;

const TYPE_DRAFT = {
  key: 'hostile-fields',
  name: { en: 'Hostile fields' },
  resourceTypeIds: ['store'],
  fieldDefinitions: [
    { name: 'label', type: { name: 'String' }, required: false, label: { en: 'Label' } },
    { name: 'size', type: { name: 'Number' }, required: false, label: { en: 'Size' } },
    { name: 'active', type: { name: 'Boolean' }, required: false, label: { en: 'Active' } },
    { name: 'tags', type: { name: 'Set', elementType: { name: 'String' } }, required: false, label: { en: 'Tags' } },
  ],
};
const custom = (fields: Json) => ({ type: { typeId: 'type', key: 'hostile-fields' }, fields });

const A_STORES: Json[] = [
  { key: 'a-1', name: { en: 'Alpha' }, languages: ['en'], custom: custom({ label: 'a', size: 1, active: true, tags: ['x'] }) },
  { key: 'a-2', name: { en: 'Beta', de: 'Beta' }, languages: [], custom: custom({ label: "') or 1=1 --", size: -1.5, tags: [] }) },
  { key: 'a-3', languages: ['en', 'de'] },
];

/** Project B: stores that any broad predicate on A would also match, one with A's key. */
const B_STORES: Json[] = [
  { key: 'a-1', name: { en: MARKER }, languages: ['en'], custom: custom({ label: MARKER, size: 1, active: true, tags: ['x'] }) },
  { key: 'b-secret', name: { en: 'Alpha', de: MARKER }, languages: ['en', 'de'], custom: custom({ label: 'a', size: 1, tags: [MARKER] }) },
  { key: 'aa', name: { en: 'Beta' }, languages: [], custom: custom({ label: "') or 1=1 --", size: -1.5, active: false }) },
  { key: 'zz', languages: ['en', 'de'], custom: custom({ label: MARKER }) },
  { key: 'a-3-b', languages: ['en', 'de'] },
];

const INJECTIONS = [
  '"; DROP TABLE resources; --',
  "') or 1=1 --",
  "' OR '1'='1",
  '" or "1" = "1',
  '1; SELECT pg_sleep(10)',
  'key = "a-1" or project_key = "hostile-b"',
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
  '%00',
  '%27%20OR%201=1',
  '&where=key is defined',
  'hostile-b',
];

const FIELDS = [
  ...['id', 'key', 'version', 'createdAt', 'lastModifiedAt'],
  ...['name', 'en', 'de', 'languages', 'custom', 'fields', 'label', 'size', 'active', 'tags', 'type', 'typeId', 'obj'],
  ...['not', 'and', 'or', 'in', 'is', 'contains', 'empty', 'last', 'r', 'doc', 'project_key', 'projectKey', '_x1', 'ünï'],
];

/** Any UTF-16 code unit: control characters, NUL and lone surrogates as often as anything else. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)), maxLength: 10 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
  fc.constantFrom(...INJECTIONS),
);
const longText = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', minLength: 500, maxLength: 3_000 }),
  fc.integer({ min: 1_000, max: 4_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 100, max: 900 }).map((n) => '東'.repeat(n)),
);

const stringLiteral = fc.oneof(
  { weight: 4, arbitrary: anyText.map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: anyText.map((text) => `"${text}"`) },
  { weight: 1, arbitrary: fc.constantFrom('"a-1"', '"Alpha"', '"en"', '"2024-01-03"', '"2030-01-01T00:00:00+01:00"', '"1"', '"true"') },
);
const numberLiteral = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
  fc.integer().map(String),
  fc.constantFrom('1e400', '-0', '007', '1.5e-10', '1e-999', '9'.repeat(70), '-', '1.', '.5', '0x10', '1e+308', '-1.5'),
);
const value = fc.oneof(
  { weight: 4, arbitrary: stringLiteral },
  { weight: 3, arbitrary: numberLiteral },
  { weight: 2, arbitrary: fc.constantFrom('true', 'FALSE', ':v', ':keys') },
  { weight: 1, arbitrary: fc.constantFrom(':missing', ':', ':__proto__', ':constructor', 'null', 'x', '') },
);
const list = fc.oneof(
  { weight: 3, arbitrary: fc.array(value, { minLength: 1, maxLength: 4 }).map((values) => `(${values.join(', ')})`) },
  { weight: 2, arbitrary: fc.constantFrom(':v', ':keys') },
  { weight: 1, arbitrary: fc.constantFrom('()', ':missing', '("a",)', '"a"', '(,)') },
);
const fieldTest = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('=', '!=', '<>', '<', '<=', '>', '>='), value).map(([op, v]) => `${op} ${v}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('==', '!', '=>', '=<', '', '~', 'LIKE'), value).map(([op, v]) => `${op} ${v}`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('in', 'not in', 'NOT IN', 'contains any', 'contains all', 'Contains All', 'contains'), list)
      .map(([op, l]) => `${op} ${l}`),
  },
  { weight: 2, arbitrary: fc.constantFrom('is empty', 'is not empty', 'is defined', 'IS NOT DEFINED', 'is', 'is null') },
);

/** Predicates from the grammar (mostly valid), nested, chained and grouped. */
const { predicate } = fc.letrec<{ predicate: string }>((tie) => ({
  predicate: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...FIELDS), fieldTest).map(([field, t]) => `${field} ${t}`),
    fc.tuple(fc.constantFrom(...FIELDS), tie('predicate')).map(([field, inner]) => `${field}(${inner})`),
    fc.tuple(tie('predicate'), fc.constantFrom(' and ', ' or ', ' AND ', ' Or ', ' '), tie('predicate')).map(([a, op, b]) => a + op + b),
    tie('predicate').map((inner) => `not(${inner})`),
    tie('predicate').map((inner) => `(${inner})`),
  ),
}));

/** Random edits of a predicate: unbalanced parentheses, cut strings, stray characters. */
const mutated = fc
  .tuple(
    predicate,
    fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constant(''), anyCodeUnit, fc.constantFrom('(', ')', '"', '\\', ':', ',', '%', '&', '+'))), {
      maxLength: 3,
    }),
  )
  .map(([text, edits]) =>
    edits.reduce((current, [at, insert]) => {
      const position = current.length === 0 ? 0 : at % current.length;
      return insert === '' ? current.slice(0, position) + current.slice(position + 1) : current.slice(0, position) + insert + current.slice(position);
    }, text),
  );

const deeplyNested = fc
  .tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom('(', 'not(', 'name(', 'custom(fields(', 'a('), fc.integer({ min: -2, max: 2 }))
  .map(([depth, opener, imbalance]) => {
    const closers = ')'.repeat(opener.split('(').length - 1);
    return `${opener.repeat(depth)}size > 2${closers.repeat(Math.max(0, depth + imbalance))}`;
  });

const longChain = fc
  .tuple(fc.integer({ min: 2, max: 600 }), fc.constantFrom(' or ', ' and '), fc.constantFrom('', 'name(', 'custom(fields('))
  .map(([terms, joiner, wrapper]) => {
    const inner = Array.from({ length: terms }, (_, i) => `label = "${i}"`).join(joiner);
    return `${wrapper}${inner}${')'.repeat(wrapper.split('(').length - 1)}`;
  });

const where = fc.oneof(
  { weight: 10, arbitrary: predicate },
  { weight: 3, arbitrary: mutated },
  { weight: 3, arbitrary: anyText },
  { weight: 1, arbitrary: deeplyNested },
  { weight: 1, arbitrary: longChain },
  { weight: 1, arbitrary: longText.map((text) => `name(en = ${JSON.stringify(text)})`) },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS).map((text) => `name(en = ${text})`) },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS).map((text) => `key = "${text}"`) },
);

const sort = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 4 }), fc.constantFrom('', ' asc', ' desc', ' DESC', ' Asc', '\tdesc'))
      .map(([path, direction]) => path.join('.') + direction),
  },
  { weight: 1, arbitrary: fc.constantFrom('name..en', 'name.en up', 'a b c', '', '.x', 'x.', 'custom.fields[0]', ' key  desc ', 'key\ndesc') },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: longText },
);

const expand = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('custom.type', 'custom.type.obj', 'custom.type.obj.key', 'custom.type[*]', 'custom[*].type', 'custom.type.obj.obj'),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...FIELDS), fc.constantFrom('[*]', '[0]', '[-1]', '[99999999999]', '[', ']', '.', '..')), { maxLength: 6 })
      .map((parts) => parts.join('.')),
  },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: longText },
);

const integerText = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 12_000 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '1',
      '500',
      '501',
      '10000',
      '10001',
      '',
      ' 5',
      '5 ',
      '+5',
      '1e2',
      '0x10',
      '1.0',
      '-0',
      '00000001',
      '9'.repeat(40),
      'NaN',
      'Infinity',
    ),
  },
  { weight: 1, arbitrary: anyText },
);

const varValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('true', 'false', '1', '-1.5', '2024-01-03', 'a-1', 'en', 'Alpha', MARKER, 'hostile-b') },
  { weight: 3, arbitrary: anyText },
  { weight: 1, arbitrary: numberLiteral },
  { weight: 1, arbitrary: longText },
);
const varName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('v', 'keys') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'toString', 'missing', '', 'v.w', 'V', 'a_b', 'ünï') },
  { weight: 1, arbitrary: anyText },
);

/** One parameter; names and values hostile in every position. Repeated names stay repeated. */
const param: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 8, arbitrary: where.map((text): [string, string] => ['where', text]) },
  { weight: 5, arbitrary: fc.tuple(varName, varValue).map(([name, text]): [string, string] => [`var.${name}`, text]) },
  { weight: 3, arbitrary: sort.map((text): [string, string] => ['sort', text]) },
  { weight: 2, arbitrary: expand.map((text): [string, string] => ['expand', text]) },
  { weight: 2, arbitrary: integerText.map((text): [string, string] => ['limit', text]) },
  { weight: 2, arbitrary: integerText.map((text): [string, string] => ['offset', text]) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('true', 'false', 'TRUE', '1', ''), anyText).map((text): [string, string] => ['withTotal', text]) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'where[]', 'var.', 'var', 'Where', 'projectKey', 'sort.x'), anyText), varValue)
      .map(([name, text]): [string, string] => [name, text]),
  },
);

/** Requests that look like real ones (one where, some vars) and wilder mixtures. */
const request: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        where,
        fc.array(fc.tuple(fc.constantFrom('v', 'keys'), varValue), { maxLength: 3 }),
        fc.option(sort, { nil: undefined }),
        fc.option(expand, { nil: undefined }),
      )
      .map(([w, vars, s, e]) => [
        ['where', w] as [string, string],
        ...vars.map(([name, text]): [string, string] => [`var.${name}`, text]),
        ...(s === undefined ? [] : [['sort', s] as [string, string]]),
        ...(e === undefined ? [] : [['expand', e] as [string, string]]),
      ]),
  },
  { weight: 2, arbitrary: fc.array(param, { minLength: 1, maxLength: 8 }) },
);

/** Predicates that are valid (fields, operators and value types fit): these reach the database. */
const DOC_FIELDS = ['name', 'en', 'de', 'languages', 'custom', 'fields', 'label', 'size', 'active', 'tags', 'type', 'typeId', 'obj', 'zz'];
const storableText = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom(...INJECTIONS.slice(0, 13), 'a-1', 'Alpha', 'en', 'a', MARKER));
const docValue = fc.oneof(
  { weight: 3, arbitrary: storableText.map((text) => JSON.stringify(text)) },
  { weight: 2, arbitrary: fc.oneof(fc.integer({ min: -3, max: 3 }).map(String), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', ':v') },
);
const docTest = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('=', '!=', '<>', '<', '<=', '>', '>='), docValue).map(([op, v]) => `${op} ${v}`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('in', 'not in', 'contains any', 'contains all'),
        fc.oneof(
          fc.constant(':keys'),
          fc.array(docValue, { minLength: 1, maxLength: 3 }).map((values) => `(${values.join(', ')})`),
        ),
      )
      .map(([op, l]) => `${op} ${l}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('is empty', 'is not empty', 'is defined', 'is not defined') },
);
const columnTest = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('key', 'id'),
      fc.constantFrom('=', '!=', '<', '>='),
      fc.oneof(
        storableText.map((t) => JSON.stringify(t)),
        fc.constant(':v'),
      ),
    )
    .map((parts) => parts.join(' ')),
  fc.tuple(fc.constantFrom('key', 'id'), fc.constantFrom('in', 'not in', 'contains any')).map(([field, op]) => `${field} ${op} :keys`),
  fc.tuple(fc.constantFrom('=', '!=', '<', '>='), fc.integer({ min: -2, max: 3 })).map(([op, n]) => `version ${op} ${n}`),
  fc
    .tuple(
      fc.constantFrom('createdAt', 'lastModifiedAt'),
      fc.constantFrom('<', '>'),
      fc.constantFrom('"2020-01-01"', '"2999-12-31T23:59:59.999Z"', '"2025-06-01T00:00:00+14:00"'),
    )
    .map((parts) => parts.join(' ')),
  fc.constantFrom('key is defined', 'id is not defined', 'key is empty'),
);
const { validPredicate } = fc.letrec<{ validPredicate: string }>((tie) => ({
  validPredicate: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...DOC_FIELDS), docTest).map(([field, t]) => `${field} ${t}`),
    columnTest,
    fc.tuple(fc.constantFrom(...DOC_FIELDS), tie('validPredicate')).map(([field, inner]) => `${field}(${inner})`),
    fc.tuple(tie('validPredicate'), fc.constantFrom(' and ', ' or '), tie('validPredicate')).map(([a, op, b]) => a + op + b),
    tie('validPredicate').map((inner) => `not(${inner})`),
    tie('validPredicate').map((inner) => `(${inner})`),
  ),
}));

/** Valid predicates, variables, sorts, expansions and paging: most of these are answered with a 200. */
const executable: fc.Arbitrary<Array<[string, string]>> = fc
  .tuple(
    fc.array(validPredicate, { minLength: 1, maxLength: 3 }),
    varValue,
    fc.array(varValue, { minLength: 1, maxLength: 3 }),
    fc.array(fc.constantFrom('key asc', 'name.en desc', 'custom.fields.size asc', 'createdAt desc', 'id', 'custom.fields.label', 'zz.type desc'), {
      maxLength: 2,
    }),
    fc.subarray(['custom.type', 'custom.type.obj.key']),
    fc.constantFrom<Array<[string, string]>>(
      [],
      [['limit', '1']],
      [
        ['limit', '500'],
        ['offset', '1'],
      ],
      [['withTotal', 'false']],
    ),
  )
  .map(([predicates, v, keys, sorts, expands, paging]) => [
    ...predicates.map((text): [string, string] => ['where', text]),
    ['var.v', v] as [string, string],
    ...keys.map((text): [string, string] => ['var.keys', text]),
    ...sorts.map((text): [string, string] => ['sort', text]),
    ...expands.map((text): [string, string] => ['expand', text]),
    ...paging,
  ]);

describe(`hostile query parameters through HTTP on ${process.env.DATABASE_URL?.startsWith('postgres') === true ? 'PostgreSQL' : 'PGlite'}`, () => {
  let gateway: TestGateway;
  let viewA: string;
  let viewB: string;
  const aIds = new Set<string>();
  /** Ids of project B (stores and its Type) and the marker: none may appear in an answer for A. */
  const forbidden: string[] = [MARKER];
  const outcomes = { ok: 0, matched: 0, rejected: 0, blocked: 0 };

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [A, B] });
    const adminA = await tokenFor(gateway, A, ['manage_types', 'manage_stores']);
    const adminB = await tokenFor(gateway, B, ['manage_types', 'manage_stores']);
    viewA = await tokenFor(gateway, A, ['view_stores']);
    viewB = await tokenFor(gateway, B, ['view_stores']);
    await post(gateway, adminA, `/${A}/types`, TYPE_DRAFT);
    forbidden.push((await post(gateway, adminB, `/${B}/types`, TYPE_DRAFT)).id as string);
    for (const draft of A_STORES) aIds.add((await post(gateway, adminA, `/${A}/stores`, draft)).id as string);
    for (const draft of B_STORES) forbidden.push((await post(gateway, adminB, `/${B}/stores`, draft)).id as string);
  });
  afterAll(() => gateway?.close());

  /** The property: a 200 with only A's stores, or a 400 in the error shape (431 only beyond §8's limit). */
  async function check(params: Params): Promise<number> {
    const answer = await get(gateway, viewA, `/${A}/stores`, params);
    const context = `GET ${answer.url.slice(0, 2_000)} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`;
    if (answer.status === 200) {
      outcomes.ok++;
      const results = answer.body.results as Json[];
      expect(Array.isArray(results), context).toBe(true);
      expect(answer.body.count, context).toBe(results.length);
      if (results.length > 0) outcomes.matched++;
      for (const result of results) expect(aIds.has(result.id as string), context).toBe(true);
      if (answer.body.total !== undefined) expect(answer.body.total, context).toBeLessThanOrEqual(aIds.size);
      const text = JSON.stringify(answer.body);
      for (const secret of forbidden) expect(text.includes(secret), `${secret} leaked: ${context}`).toBe(false);
      return answer.status;
    }
    const bytes = Buffer.byteLength(answer.url) + 200; // + the request's headers (token, host, user agent)
    if (answer.status === 431 && bytes > MAX_URL_AND_HEADERS_BYTES - 1_024) {
      outcomes.blocked++;
      expect(isErrorShape(answer.body, 431), context).toBe(true);
      return answer.status;
    }
    expect(answer.status, context).toBe(400);
    expect(isErrorShape(answer.body, 400), context).toBe(true);
    outcomes.rejected++;
    return answer.status;
  }

  it('answers 200 (only A) or 400 for random requests built from the grammar and hostile text', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (params) => void (await check(params))),
      { numRuns: 3_000 },
    );
  }, 180_000);

  it('answers 200 (only A) or 400 for random predicates with valid sort, expand and paging', async () => {
    const before = { ...outcomes };
    await fc.assert(
      fc.asyncProperty(executable, async (params) => void (await check(params))),
      { numRuns: 2_000 },
    );
    // The generator must reach the database often, or the property proves little.
    expect(outcomes.ok - before.ok).toBeGreaterThan(1_000);
    expect(outcomes.matched - before.matched).toBeGreaterThan(200);
  }, 180_000);

  it('answers 200 or 400 for raw random strings in every parameter', async () => {
    const raw = fc.array(
      fc.tuple(fc.constantFrom('where', 'sort', 'expand', 'limit', 'offset', 'withTotal', 'var.v', 'var.keys'), fc.oneof(anyText, longText)),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(raw, async (params) => void (await check(params))),
      { numRuns: 1_500 },
    );
  }, 180_000);

  it('survives the classic injection payloads in every position', async () => {
    for (const payload of INJECTIONS) {
      const literal = JSON.stringify(payload);
      for (const text of [
        payload,
        `key = ${literal}`,
        `name(en = ${literal})`,
        `key = "${payload}"`,
        `name(en = "${payload}")`,
        `custom(fields(label = ${literal}))`,
        `${payload} = 1`,
        `key in (${literal}, :v)`,
        `key = "a-1" or ${payload}`,
      ]) {
        await check([
          ['where', text],
          ['var.v', payload],
          ['sort', payload],
        ]);
        await check([
          ['where', text],
          ['var.v', payload],
        ]);
      }
      await check([
        ['where', 'custom(fields(label = :v))'],
        ['var.v', payload],
      ]);
      await check([
        ['where', 'key in :v'],
        ['var.v', payload],
        ['var.v', 'a-1'],
      ]);
      await check([
        ['expand', payload],
        ['limit', payload],
        ['offset', payload],
        ['withTotal', payload],
      ]);
      await check([
        [payload, payload],
        [`var.${payload}`, payload],
      ]);
    }
    // The label "') or 1=1 --" of a-2 is found exactly, as a value, by literal and by variable.
    for (const params of [
      [['where', `custom(fields(label = "') or 1=1 --"))`]],
      [
        ['where', 'custom(fields(label = :v))'],
        ['var.v', "') or 1=1 --"],
      ],
    ] as Array<Array<[string, string]>>) {
      const answer = await get(gateway, viewA, `/${A}/stores`, params);
      expect((answer.body.results as Json[]).map((store) => store.key)).toEqual(['a-2']);
    }
  }, 120_000);

  it('bounds length, nesting, list sizes and repetitions with a 400, and stays correct below the bounds', async () => {
    const nested = (depth: number) => `${'('.repeat(depth)}key = "a-1"${')'.repeat(depth)}`;
    expect(await check([['where', nested(32)]])).toBe(200);
    expect(await check([['where', nested(33)]])).toBe(400);
    expect(await check([['where', `${'not('.repeat(1_000)}key = "a-1"${')'.repeat(1_000)}`]])).toBe(400);
    expect(await check([['where', '('.repeat(4_500)]])).toBe(400);
    expect(await check([['where', `key = "${'x'.repeat(10_000)}"`]])).toBe(400);
    const list = (n: number) => `key in (${Array.from({ length: n }, (_, i) => `"k${i}"`).join(',')})`;
    expect(await check([['where', list(500)]])).toBe(200);
    expect(await check([['where', list(501)]])).toBe(400);
    expect(await check(Array.from({ length: 32 }, (): [string, string] => ['where', 'key is defined']))).toBe(200);
    expect(await check(Array.from({ length: 33 }, (): [string, string] => ['where', 'key is defined']))).toBe(400);
    expect(await check(Array.from({ length: 17 }, (): [string, string] => ['sort', 'key']))).toBe(400);
    expect(await check(Array.from({ length: 11 }, (_, i): [string, string] => ['expand', `custom.type${'.obj'.repeat(i)}`]))).toBe(400);
    expect(
      await check([
        ['limit', '1'],
        ['limit', '2'],
      ]),
    ).toBe(400);
    expect(await check([['var.v', 'x'.repeat(12_000)]])).toBe(200); // unused variables are not read
  }, 120_000);

  it('answers long and/or chains and big lists inside nested predicates (deep jsonpath) without a 500', async () => {
    // As long as the URL limit of §8 allows (`l=1 or ` is 9 bytes encoded); under 10000 characters.
    const chain = (terms: number, joiner: string) => Array.from({ length: terms }, (_, i) => `l=${i % 10}`).join(joiner);
    const values = (n: number) => Array.from({ length: n }, (_, i): [string, string] => ['var.v', String(i)]);
    const cases: Array<Array<[string, string]>> = [
      [['where', `custom(fields(${chain(1_350, ' or ')} or label="a"))`]],
      [['where', `custom(fields(label="a" or ${chain(1_350, ' or ')}))`]],
      [['where', `custom(fields(${chain(1_150, ' and ')}))`]],
      [['where', `name(${chain(1_350, ' or ')})`]],
      [['where', `${chain(1_350, ' or ')} or key="a-1"`]],
      [['where', `not(${chain(1_200, ' and ')})`]],
      [['where', `custom(fields(label in (${Array.from({ length: 500 }, (_, i) => i % 10).join(',')})))`]],
      [['where', 'custom(fields(label in :v))'], ...values(500)],
      [['where', 'custom(fields(tags contains all :v))'], ...values(500)],
      [['where', 'languages not in :v'], ...values(500)],
      [['where', `not(${'custom(fields('.repeat(15)}label = "a"${'))'.repeat(15)})`]],
      // 32 predicates × 500 values: 16000 bound parameters for the columns, 32 big jsonpaths.
      [...Array.from({ length: 32 }, (): [string, string] => ['where', 'key not in :v']), ...values(500)],
      [...Array.from({ length: 32 }, (): [string, string] => ['where', 'custom(fields(label not in :v)) or id in :v']), ...values(500)],
    ];
    for (const params of cases) {
      // These are valid predicates within every limit: they must run, not be refused.
      expect(await check(params), params[0]?.[1].slice(0, 200)).toBe(200);
    }
  }, 120_000);

  it('still has both projects intact afterwards, and the properties did reach the database', async () => {
    const a = await get(gateway, viewA, `/${A}/stores`, [['limit', '500']]);
    expect(a.body.total).toBe(A_STORES.length);
    const b = await get(gateway, viewB, `/${B}/stores`, [['limit', '500']]);
    expect(b.body.total).toBe(B_STORES.length);
    expect(outcomes.ok).toBeGreaterThan(2_000);
    expect(outcomes.rejected).toBeGreaterThan(2_000);
    if (process.env.QUERY_HTTP_OUTCOMES === '1') console.log('hostile-http outcomes', outcomes);
  });
});
