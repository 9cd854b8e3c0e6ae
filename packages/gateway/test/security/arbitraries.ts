/**
 * fast-check generators of hostile input for every route: JSON bodies (valid drafts of the route's
 * resource with one field replaced by a wrong type, a huge string, a huge array, a deeply nested
 * value or prototype keys; truncated JSON; random JSON and text; invalid UTF-8 and NUL bytes),
 * OAuth form bodies, path parameter values, query strings and header abuse.
 *
 * Fragments are raw JSON text, spliced into a serialised template, so that what cannot be built
 * as a JS object (`__proto__` keys, 10,000 levels of nesting, lone surrogates) is sent as is.
 */
import fc from 'fast-check';
import type { RouteRecord } from '../../src/auth/hook.js';
import { collectionOf, lineItem, TYPE_DRAFT, type Json, type ProjectWorld } from './support.js';

/** Replaced by the resource's current version just before an update is sent. */
export const VERSION_SENTINEL = -424242;

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '😀\u202e\u200b',
  '../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%2e%2e%2f',
  "' OR '1'='1",
  '"; DROP TABLE resources; --',
  '$where',
  '{"$gt":""}',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e400',
  'true',
  'x'.repeat(257),
  'É'.repeat(300),
];

export const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
);

// ---------------------------------------------------------------------------------------------
// Raw JSON fragments
// ---------------------------------------------------------------------------------------------

/** A JSON string literal that may hold NUL, lone surrogates and control characters as escapes. */
const stringLiteral = anyText.map((text) => JSON.stringify(text));

const deepNesting = fc
  .tuple(fc.integer({ min: 1_000, max: 10_000 }), fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['[{"a":', '}]'], ['{"__proto__":', '}']))
  .map(([depth, [open, close]]) => `${open.repeat(depth)}1${close.repeat(depth)}`);

/** Moderately deep values: deep enough to hurt recursive code, not so deep that parsing must stop. */
const moderateNesting = fc
  .tuple(fc.integer({ min: 20, max: 400 }), fc.constantFrom<[string, string]>(['[', ']'], ['{"en":', '}'], ['{"a":[', ']}']))
  .map(([depth, [open, close]]) => `${open.repeat(depth)}"x"${close.repeat(depth)}`);

const hugeString = fc
  .tuple(fc.integer({ min: 100_000, max: 150_000 }), fc.constantFrom('x', 'é', '😀', '\\u0041', '\\"'))
  .map(([length, unit]) => `"${unit.repeat(Math.ceil(length / unit.length))}"`);

const hugeArray = fc
  .tuple(fc.integer({ min: 10_000, max: 12_000 }), fc.constantFrom('1', '"en"', '{}', 'null', '{"action":"setName"}', '{"resourceTypeId":"store"}', '"a-1"'))
  .map(([length, item]) => `[${Array.from({ length }, () => item).join(',')}]`);

const hugeObject = fc.integer({ min: 5_000, max: 10_000 }).map((size) => `{${Array.from({ length: size }, (_, i) => `"k${i}":${i}`).join(',')}}`);

const PROTO_FRAGMENTS = [
  '{"__proto__":{"polluted":true,"isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"__proto__":null}',
  '{"__proto__":[]}',
  '{"prototype":{"toString":1},"toString":"x","valueOf":2,"hasOwnProperty":3}',
  '{"__proto__":{"__proto__":{"polluted":true}}}',
];

const WRONG_TYPES = [
  'null',
  'true',
  'false',
  '0',
  '-1',
  '1.5',
  '-0',
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '""',
  '"x"',
  '[]',
  '[null]',
  '{}',
  '{"en":null}',
  '[[]]',
  '{"typeId":"store","id":"../x"}',
  '{"id":"00000000-0000-0000-0000-000000000000"}',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00x"',
  '{"\\u0000":1}',
  '{"":""}',
];

/** Raw JSON text that is valid JSON: what replaces one field of a template. */
export const hostileFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WRONG_TYPES) },
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 4, arbitrary: stringLiteral },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_FRAGMENTS) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: hugeArray },
  { weight: 1, arbitrary: hugeObject },
  { weight: 1, arbitrary: deepNesting },
  { weight: 2, arbitrary: moderateNesting },
);

/** Key names added to an object of a template. */
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', '\u0000', '\ud800', 'toString', 'version', 'actions', 'id', 'projectKey', 'createdBy'),
  anyText,
);

// ---------------------------------------------------------------------------------------------
// Templates: a valid body of each route, to mutate
// ---------------------------------------------------------------------------------------------

function isUpdateRoute(route: RouteRecord): boolean {
  return route.method === 'POST' && (/\/(:id|key=:key)$/.test(route.url) || route.url === '/:projectKey');
}

/** Valid (or nearly valid) bodies of a POST route of project `world`. */
export function templatesFor(route: RouteRecord, world: ProjectWorld, projectKey: string): Json[] {
  const collection = collectionOf(route.url);
  const update = (...actions: Json[]): Json[] => actions.map((action) => ({ version: VERSION_SENTINEL, actions: [action] }));
  const unique = () => `h${Math.random().toString(36).slice(2, 10)}`;
  const seed = (name: string) => world.seeds.get(name);
  if (route.url.endsWith('/graphql')) return graphqlTemplates(world);
  if (route.url.endsWith('/dropped/replay')) return [{ ids: ['00000000-0000-0000-0000-000000000000'] }, {}];
  if (isUpdateRoute(route)) {
    switch (collection) {
      case '':
        return update(
          { action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 30 } },
          { action: 'changeMyBusinessUnitStatusOnCreation', status: 'Active' },
        );
      case 'stores':
        return update({ action: 'setName', name: { en: 'Renamed' } }, { action: 'setLanguages', languages: ['en', 'de'] });
      case 'types':
        return update(
          { action: 'changeName', name: { en: 'Renamed' } },
          { action: 'addFieldDefinition', fieldDefinition: { name: unique(), type: { name: 'String' }, required: false, label: { en: 'L' } } },
        );
      case 'states':
        return update({ action: 'setName', name: { en: 'Renamed' } }, { action: 'setTransitions', transitions: [{ typeId: 'state', id: seed('states')?.id }] });
      case 'customers':
        return update({ action: 'setFirstName', firstName: 'Renamed' }, { action: 'changeEmail', email: `${unique()}@example.com` });
      case 'carts':
        return update(
          { action: 'setCountry', country: 'DE' },
          { action: 'addLineItem', ...lineItem('SKU-9') },
          { action: 'setShippingAddress', address: { country: 'DE', city: 'Berlin' } },
        );
      case 'me/carts':
        // MyCartUpdateAction: a buyer sets no price (buyer-limits.ts), so no externalPrice here; the
        // seeded product has no price to select either, so these actions leave line items alone.
        return update(
          { action: 'setCountry', country: 'DE' },
          { action: 'setShippingAddress', address: { country: 'DE', city: 'Berlin' } },
          { action: 'addItemShippingAddress', address: { key: unique(), country: 'AT' } },
          { action: 'setCustomerEmail', email: `${unique()}@example.com` },
          { action: 'setDeleteDaysAfterLastModification', deleteDaysAfterLastModification: 30 },
        );
      case 'quote-requests':
        return update(
          { action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' },
          { action: 'transitionState', state: { typeId: 'state', id: seed('states')?.id } },
        );
      case 'me/quote-requests':
        return update({ action: 'changeMyQuoteRequestState', quoteRequestState: 'Cancelled' });
      case 'business-units':
      case 'me/business-units':
        return update(
          { action: 'changeName', name: 'Renamed' },
          { action: 'addAddress', address: { key: unique(), country: 'DE' } },
          { action: 'setCustomType', type: { typeId: 'type', key: seed('types')?.key }, fields: { label: 'x' } },
        );
      case 'subscriptions':
        return update({ action: 'setChanges', changes: [{ resourceTypeId: 'cart' }] }, { action: 'setKey', key: unique() });
      default:
        return update({ action: 'setName', name: { en: 'x' } });
    }
  }
  switch (collection) {
    case 'stores':
      return [
        { key: unique(), name: { en: 'Store' }, languages: ['en'], custom: { type: { key: seed('types')?.key, typeId: 'type' }, fields: { label: 'x' } } },
      ];
    case 'types':
      return [{ ...TYPE_DRAFT, key: unique() }];
    case 'states':
      return [{ key: unique(), type: 'QuoteRequestState', initial: false, name: { en: 'S' }, transitions: [{ typeId: 'state', key: seed('states')?.key }] }];
    case 'customers':
      return [
        { email: `${unique()}@example.com`, password: 'secret-password', firstName: 'F', addresses: [{ country: 'DE' }], stores: [{ key: world.storeKey }] },
      ];
    case 'carts':
      return [{ currency: 'EUR', country: 'DE', customerId: world.customer.id, lineItems: [lineItem('SKU-1')], shippingAddress: { country: 'DE' } }];
    case 'me/carts':
      // A MyCartDraft has no customLineItems and its line items no externalPrice (buyer-limits.ts).
      return [
        {
          currency: 'EUR',
          country: 'DE',
          customerEmail: `${unique()}@example.com`,
          shippingAddress: { country: 'DE', city: 'Berlin' },
          billingAddress: { country: 'DE', city: 'Berlin' },
          itemShippingAddresses: [{ key: unique(), country: 'AT' }],
          locale: 'en',
          deleteDaysAfterLastModification: 30,
        },
      ];
    case 'quote-requests':
    case 'me/quote-requests':
      return [{ cart: { id: seed('me/carts')?.id, typeId: 'cart' }, cartVersion: 1, comment: 'quote' }];
    case 'business-units':
      return [{ key: unique(), name: 'Unit', unitType: 'Division', parentUnit: { key: seed('business-units')?.key, typeId: 'business-unit' }, associates: [] }];
    case 'me/business-units':
      return [{ key: unique(), name: 'Mine', unitType: 'Company' }];
    case 'subscriptions':
      return [
        {
          key: unique(),
          destination: { type: 'SQS', queueUrl: world.queueUrl, region: 'us-east-1', accessKey: 'AKIAHOSTILE', accessSecret: 'hostile-secret' },
          messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
          format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
        },
      ];
    case 'api-clients':
      return [{ name: 'hostile', scope: `view_stores:${projectKey}`, accessTokenValiditySeconds: 3600 }];
    default:
      return [{}];
  }
}

function graphqlTemplates(world: ProjectWorld): Json[] {
  const unit = world.seeds.get('business-units');
  return [
    { query: 'query ($k: String) { businessUnit(key: $k) { id key name associates { roles customerRef { id } } } }', variables: { k: unit?.key } },
    {
      query: 'query ($w: String, $l: Int) { businessUnits(where: $w, limit: $l, sort: ["key asc"]) { total results { id key } } }',
      variables: { w: 'key is defined', l: 5 },
    },
    { query: '{ me { businessUnits { total results { key } } } project { key } }' },
    {
      query: 'mutation ($v: Long!, $k: String) { updateBusinessUnit(key: $k, version: $v, actions: [{changeName: {name: "x"}}]) { version } }',
      variables: { v: 1, k: unit?.key },
    },
    {
      query: 'mutation ($d: BusinessUnitDraft!) { createBusinessUnit(draft: $d) { id } }',
      variables: { d: { key: 'gql-unit', name: 'G', unitType: 'Company' } },
      operationName: null,
    },
  ];
}

/** Hostile GraphQL documents: deep selections, breadth, huge literals, NUL escapes, syntax noise. */
export const hostileGraphqlQuery: fc.Arbitrary<string> = fc.oneof(
  fc
    .integer({ min: 13, max: 8_000 })
    .map((depth) => `{ ${'me { businessUnits { results { parentUnit { '.repeat(1)}${'a { '.repeat(depth)}id${' }'.repeat(depth + 4)} }`),
  fc.integer({ min: 100, max: 10_000 }).map((depth) => `${'{'.repeat(depth)}${'}'.repeat(depth)}`),
  fc.integer({ min: 100, max: 10_000 }).map((depth) => `query { businessUnits(where: ${'['.repeat(depth)}"x"${']'.repeat(depth)}) { total } }`),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`),
  fc.integer({ min: 100, max: 3_000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `b${i}: businessUnits(limit: 1) { total }`).join(' ')} }`),
  fc
    .integer({ min: 100, max: 2_000 })
    .map(
      (n) =>
        `query { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join(' ')} fragment F${n} on Query { __typename }`,
    ),
  fc.constantFrom(
    'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
    '{ businessUnit(key: "a\\u0000b") { id } }',
    '{ businessUnit(id: "\\u0000") { id } }',
    '{ businessUnit(key: "\\ud800") { id } }',
    '{ businessUnits(where: "key = \\"\\u0000\\"") { total } }',
    '{ businessUnits(sort: ["\\u0000"]) { total } }',
    '{ businessUnits(limit: 99999999999) { total } }',
    '{ businessUnits(offset: -1) { total } }',
    '{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }',
    'subscription { x }',
    'mutation { updateProject(version: 1, actions: []) { key } }',
    '{ businessUnit @include(if: true) @skip(if: false) @deprecated { id } }',
    '#'.repeat(1000),
    '{ a(x: 1e400) }',
    `{ businessUnit(key: "${'x'.repeat(100_000)}") { id } }`,
    '{ me { businessUnit(key: null) { id } } }',
  ),
  anyText,
);

/**
 * Fixed GraphQL documents that once crashed or overflowed the stack (each found by the properties
 * or a probe of this suite): sent on every run, whatever the random generators pick.
 */
export const KNOWN_HOSTILE_GRAPHQL: readonly string[] = [
  '1',
  'null',
  '{}',
  '[]',
  '"x"',
  '{"kind":"Document","definitions":[{}]}',
  '{"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query"}]}',
  `query { businessUnits(where: ${'['.repeat(9_000)}"x"${']'.repeat(9_000)}) { total } }`,
  `{ ${'a { '.repeat(5_000)}id${' }'.repeat(5_000)} }`,
  `query { ...F0 } ${Array.from({ length: 5_000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join(' ')} fragment F5000 on Query { __typename }`,
  `{ ${Array.from({ length: 3_000 }, (_, i) => `b${i}: businessUnits(limit: 500) { total results { id key name } }`).join(' ')} }`,
  '{ businessUnit(key: "a\\u0000b") { id } }',
  '{ businessUnit(id: "\\ud800") { id } }',
];

/**
 * Fixed raw bodies, one per class of hostile input, sent to every body route on every run (the
 * template's first draft, with the hostile part in a string field or around it).
 */
export function knownHostileBodies(template: Json): Array<[string, Body]> {
  const text = JSON.stringify(template);
  const firstString = (fragment: string) => replaceFirstString(text, fragment);
  return [
    ['10,000 levels of arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['10,000 levels of objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['1,000 levels in a field', firstString(`${'{"en":'.repeat(1_000)}"x"${'}'.repeat(1_000)}`)],
    ['NUL escape in a string', firstString('"a\\u0000b"')],
    ['NUL escape in a key', text.replace('{', '{"k\\u0000":1,')],
    ['lone high surrogate', firstString('"\\ud800"')],
    ['lone low surrogate', firstString('"x\\udfff"')],
    ['__proto__ at the top', text.replace('{', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},')],
    ['__proto__ in a field', firstString('{"__proto__":{"polluted":true}}')],
    ['100 KB string', firstString(`"${'x'.repeat(100_000)}"`)],
    ['10k-item array', firstString(`[${Array.from({ length: 10_000 }, () => '"en"').join(',')}]`)],
    ['invalid UTF-8 in a string', bytesInStrings(text, [0xff, 0xfe])],
    ['overlong UTF-8', bytesInStrings(text, [0xc0, 0xaf])],
    ['encoded surrogate', bytesInStrings(text, [0xed, 0xa0, 0x80])],
    ['raw NUL byte in a string', bytesInStrings(text, [0x00])],
    ['truncated', text.slice(0, Math.max(1, Math.floor(text.length / 2)))],
    ['1e400', firstString('1e400')],
  ];
}

/** The serialised template with its first string value replaced by a raw fragment. */
function replaceFirstString(text: string, fragment: string): string {
  const match = /:"(?:[^"\\]|\\.)*"/.exec(text);
  if (match === null) return text.replace('{', `{"x":${fragment},`);
  return `${text.slice(0, match.index)}:${fragment}${text.slice(match.index + match[0].length)}`;
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/** Every JSON path of a value (objects and arrays), the root included. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

const SLOT = '__HOSTILE_SLOT__';

function setAt(value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === head ? setAt(item, rest, replacement) : item]));
  }
  return value;
}

/** The template with the value at one path replaced by a raw fragment. */
function replaceAt(template: Json, pick: number, fragment: string): string {
  const paths = pathsOf(template);
  const path = paths[pick % paths.length] ?? [];
  return JSON.stringify(setAt(template, path, SLOT)).replace(JSON.stringify(SLOT), () => fragment);
}

/** The template with a key added to one of its objects. */
function addKeyAt(template: Json, pick: number, key: string, fragment: string): string {
  const objects = pathsOf(template).filter((path) => {
    let value: unknown = template;
    for (const step of path) value = (value as Record<string | number, unknown>)[step];
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  });
  const path = objects[pick % objects.length] ?? [];
  let target: unknown = template;
  for (const step of path) target = (target as Record<string | number, unknown>)[step];
  const marked = setAt(template, path, { ...(target as Json), [SLOT]: SLOT });
  return JSON.stringify(marked).replace(`${JSON.stringify(SLOT)}:${JSON.stringify(SLOT)}`, () => `${JSON.stringify(key)}:${fragment}`);
}

const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc3],
  [0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x00],
];

/** Bytes spliced into a serialised body: invalid UTF-8 sequences and raw NUL bytes. */
function spliceBytes(text: string, positions: readonly number[], sequences: readonly number[][]): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  const sorted = positions.map((position) => (bytes.length === 0 ? 0 : position % (bytes.length + 1))).sort((a, b) => a - b);
  sorted.forEach((at, index) => {
    parts.push(bytes.subarray(from, at), Buffer.from(sequences[index % sequences.length] ?? [0xff]));
    from = at;
  });
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** Inside a string value of the body: `"key":"ab<bytes>c"`, the most likely place to reach a handler. */
function bytesInStrings(text: string, sequence: readonly number[]): Buffer {
  const at = text.indexOf('":"');
  return spliceBytes(text, [at < 0 ? 0 : at + 4], [[...sequence]]);
}

export type Body = string | Buffer;

/** Hostile JSON bodies for a route whose valid bodies look like `templates`. */
export function hostileJsonBody(templates: readonly Json[]): fc.Arbitrary<Body> {
  const template = fc.constantFrom(...(templates.length === 0 ? [{}] : templates));
  const serialised = template.map((value) => JSON.stringify(value));
  return fc.oneof(
    { weight: 2, arbitrary: serialised },
    { weight: 12, arbitrary: fc.tuple(template, fc.nat(), hostileFragment).map(([t, pick, fragment]) => replaceAt(t, pick, fragment)) },
    {
      weight: 3,
      arbitrary: fc.tuple(template, fc.nat(), fc.nat(), fc.array(hostileFragment, { minLength: 2, maxLength: 3 })).map(([t, a, b, [f1, f2]]) => {
        const once = JSON.parse(replaceAt(t, a, JSON.stringify('__SECOND__'))) as Json;
        return replaceAt(once, b, f2 ?? 'null').replace('"__SECOND__"', () => f1 ?? 'null');
      }),
    },
    { weight: 4, arbitrary: fc.tuple(template, fc.nat(), hostileKey, hostileFragment).map(([t, pick, key, fragment]) => addKeyAt(t, pick, key, fragment)) },
    { weight: 2, arbitrary: fc.tuple(serialised, fc.nat()).map(([text, cut]) => text.slice(0, cut % Math.max(1, text.length))) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: anyText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        'null',
        '[]',
        '"x"',
        '0',
        'true',
        '{',
        '}',
        '{"a":1,}',
        "{'a':1}",
        '{"a":1}{"b":2}',
        '\ufeff{}',
        '/*x*/{}',
        'NaN',
        '[1,]',
      ),
    },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_FRAGMENTS) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(serialised, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.shuffledSubarray([...INVALID_UTF8], { minLength: 1 }))
        .map(([text, positions, sequences]) => spliceBytes(text, positions, sequences)),
    },
    { weight: 2, arbitrary: fc.tuple(serialised, fc.constantFrom(...INVALID_UTF8)).map(([text, sequence]) => bytesInStrings(text, sequence)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  );
}

/** Hostile bodies for a GraphQL route: the JSON mutations above, plus hostile documents. */
export function hostileGraphqlBody(templates: readonly Json[]): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileJsonBody(templates) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(hostileGraphqlQuery, fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }))
        .map(([query, variables]) => JSON.stringify({ query, ...(variables === undefined ? {} : { variables }) })),
    },
  );
}

const FORM_NAMES = ['grant_type', 'scope', 'username', 'password', 'refresh_token', 'token', 'token_type_hint', 'anonymous_id', 'client_id', 'client_secret'];
const GRANT_TYPES = ['client_credentials', 'password', 'refresh_token', 'authorization_code', 'implicit', '', 'CLIENT_CREDENTIALS'];

/** OAuth form bodies: names of the flows with hostile values, repeated names, raw bytes. */
export function hostileFormBody(projectKey: string, world: ProjectWorld): fc.Arbitrary<Body> {
  const value = fc.oneof(
    { weight: 3, arbitrary: anyText },
    { weight: 2, arbitrary: fc.constantFrom(...GRANT_TYPES) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `manage_project:${projectKey}`,
        `manage_project:${projectKey} view_stores:other-project`,
        `customer_id:${world.customer.id}`,
        `anonymous_id:x manage_project:${projectKey}`,
        world.customer.email,
        world.customer.password,
        'manage_project:*',
        `${'view_stores:p '.repeat(500)}`,
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 15_000 }).map((n) => 'x'.repeat(n)) },
  );
  const pairs = fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FORM_NAMES) }, { weight: 1, arbitrary: anyText }), value), {
    maxLength: 6,
  });
  return fc.oneof(
    { weight: 6, arbitrary: pairs.map((list) => new URLSearchParams(list.map(([name, v]): [string, string] => [name, wellFormed(v)])).toString()) },
    { weight: 2, arbitrary: pairs.map((list) => list.map(([name, v]) => `${name}=${v}`).join('&')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '=&=&',
        '&&&',
        'grant_type',
        '=x',
        'grant_type=%E0%A4%A',
        'scope=%00',
        'grant_type=client_credentials&grant_type=password',
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(pairs, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }))
        .map(([list, positions]) =>
          spliceBytes(new URLSearchParams(list.map(([n, v]): [string, string] => [n, wellFormed(v)])).toString(), positions, INVALID_UTF8),
        ),
    },
    { weight: 1, arbitrary: hostileJsonBody([{ grant_type: 'client_credentials' }]) },
  );
}

// ---------------------------------------------------------------------------------------------
// Content types and headers
// ---------------------------------------------------------------------------------------------

export const JSON_CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'];
export const ODD_CONTENT_TYPES = [
  'text/plain',
  'text/html',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/vnd.api+json',
  'application/json, text/plain',
  'application/json;;;',
  ';',
  '*/*',
  'application/',
  'application/json\u0000',
  'x'.repeat(2_000),
];

/** Bodies larger than the default body limit (1 MiB): must answer 413. */
export const BODY_LIMIT_BYTES = 1_048_576;

// ---------------------------------------------------------------------------------------------
// Path parameters and query strings (URL text, already encoded where it should be)
// ---------------------------------------------------------------------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with lone surrogates replaced by U+FFFD (what a UTF-8 encoder sends for them). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** Percent-encodes any string (lone surrogates become U+FFFD first; encodeURIComponent would throw). */
export function encodeSegment(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

const RAW_SEGMENTS = [
  '..',
  '.',
  '../..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2e%2e%2f',
  '%00',
  'a%00b',
  '%0a',
  '%0d%0a',
  '%25',
  '%',
  '%zz',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%F0%9F%98%80',
  '%E2%80%AE',
  'key=',
  'key=%00',
  'key=..',
  '*',
  '$1',
  "'",
  '%22',
  '%5C',
  ';x=1',
  '__proto__',
  'constructor',
  'null',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'x'.repeat(512),
  'x'.repeat(513),
];

/** A path parameter value as it appears in the URL. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  { weight: 3, arbitrary: anyText.filter((text) => text !== '').map(encodeSegment) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 12_000 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) => encodeSegment('東'.repeat(n))) },
);

const QUERY_NAMES = [
  'where',
  'sort',
  'expand',
  'limit',
  'offset',
  'withTotal',
  'version',
  'dataErasure',
  'var.v',
  'var.__proto__',
  'ids',
  'key',
  'id',
  'access_token',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
];
const queryValue = fc.oneof(
  { weight: 4, arbitrary: anyText },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '1',
      '0',
      '-1',
      '500',
      '501',
      '10001',
      'true',
      'false',
      '1e3',
      '0x10',
      'key is defined',
      'key = "x"',
      'id asc',
      'custom.type',
      '9'.repeat(40),
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 16_000 }).map((n) => 'x'.repeat(n)) },
);

/** A query string (without `?`): encoded pairs, repeated names, or raw broken text. */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: anyText }), queryValue), { maxLength: 6 })
      .map((pairs) => new URLSearchParams(pairs.map(([name, value]): [string, string] => [wellFormed(name), wellFormed(value)])).toString()),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%',
      '%zz=1',
      'where=%',
      'where=%ED%A0%80',
      'where=%00',
      'version=%00',
      'limit=1&limit=2',
      'version=1&version=2',
      'expand=a&expand=b&expand[]=c',
      'a[b][c]=1',
      'where[0]=x',
      '__proto__[polluted]=1',
      'constructor[prototype][polluted]=1',
      '&&&=&=',
      '=',
      '==',
      'withTotal',
      '?',
      `${'a=1&'.repeat(2_000)}`,
      'sort=%0a',
      'var.v=%F0%9F%98%80&where=key=:v',
      'dataErasure=true&version=1',
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Header abuse
// ---------------------------------------------------------------------------------------------

export type HeaderAbuse = (headers: Record<string, string | string[]>) => Record<string, string | string[]>;

const big = (n: number) => 'h'.repeat(n);

/** Changes to an otherwise valid set of request headers. */
type Headers = Record<string, string | string[]>;

const DUPLICATES: ReadonlyArray<{ name: string; apply: HeaderAbuse }> = [
  { name: 'duplicate content-type', apply: (h: Headers) => ({ ...h, 'content-type': ['application/json', 'text/plain'] }) },
  { name: 'duplicate correlation id', apply: (h: Headers) => ({ ...h, 'x-correlation-id': ['abcdefgh-1', 'abcdefgh-2'] }) },
  {
    name: 'duplicate authorization',
    apply: (h: Headers) => ({ ...h, authorization: typeof h.authorization === 'string' ? [h.authorization, 'Bearer other'] : ['Bearer a', 'Bearer b'] }),
  },
];

/** Changes to an otherwise valid set of request headers. */
export const headerAbuse: fc.Arbitrary<{ name: string; apply: HeaderAbuse }> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ name: 'none', apply: (h: Headers) => h }) },
  fc.integer({ min: 16_000, max: 40_000 }).map((n) => ({ name: `oversized x-big ${n}`, apply: (h: Headers) => ({ ...h, 'x-big': big(n) }) })),
  fc.integer({ min: 200, max: 400 }).map((n) => ({
    name: `${n} headers`,
    apply: (h: Headers) => ({ ...h, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, big(60)])) }),
  })),
  fc.constantFrom(...ODD_CONTENT_TYPES).map((type) => ({ name: `content-type ${type.slice(0, 40)}`, apply: (h: Headers) => ({ ...h, 'content-type': type }) })),
  fc.constantFrom(...DUPLICATES),
  fc.constantFrom('short', 'x'.repeat(257), 'bad id with spaces', '../../x', 'abc\u00e9defgh', '').map((id) => ({
    name: `x-correlation-id ${id.slice(0, 20)}`,
    apply: (h: Headers) => ({ ...h, 'x-correlation-id': id }),
  })),
  fc
    .constantFrom(
      'Bearer',
      'Bearer ',
      'bearer x',
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from('a:b:c').toString('base64')}`,
      `Basic ${Buffer.from([0xff, 0x3a, 0xfe]).toString('base64')}`,
      'Bearer a b c',
      `Bearer ${'t'.repeat(8_000)}`,
      'Digest x',
      'Negotiate',
      'Bearer \u00ff\u00fe',
    )
    .map((value) => ({ name: `authorization ${value.slice(0, 24)}`, apply: (h: Headers) => ({ ...h, authorization: value }) })),
  fc
    .constantFrom<[string, string]>(
      ['content-length', '3'],
      ['content-length', '999999'],
      ['content-length', '-1'],
      ['content-length', 'abc'],
      ['transfer-encoding', 'chunked'],
      ['content-encoding', 'gzip'],
      ['content-encoding', 'br, deflate'],
      ['upgrade', 'websocket'],
      ['expect', '100-continue'],
      ['accept', 'text/html'],
      ['accept-encoding', 'gzip;q=1e400'],
      ['x-forwarded-for', '\u0000, 999.999.999.999'],
      ['x-http-method-override', 'DELETE'],
      ['host', 'evil.example.com'],
    )
    .map(([name, value]) => ({ name: `${name}: ${value}`, apply: (h: Headers) => ({ ...h, [name]: value }) })),
);
