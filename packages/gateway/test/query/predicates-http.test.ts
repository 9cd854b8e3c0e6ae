/**
 * The issue's acceptance tests for query predicates (§4.4), through HTTP: every case is a
 * `GET /{projectKey}/stores?where=…` (or `/carts` for nested arrays of objects) on a real gateway
 * with a real OAuth token, and asserts exactly which resources (by key) come back. Everything is
 * seeded through the public API: a Type for stores, six stores with custom fields, carts.
 *
 * Runs on the database `startTestGateway` picks: in-memory PGlite, or PostgreSQL when
 * DATABASE_URL is a postgres:// URL.
 *
 * A ManualClock makes createdAt/lastModifiedAt known in advance. Expectations were worked out by
 * hand from the seed below (not recorded from a run). A second project holds stores and carts
 * with the SAME keys, so a result is also checked by id: a leak across projects cannot hide
 * behind a matching key.
 *
 * The seed (createdAt = 2025-01-01T00:0m:00Z with m in brackets; version after the updates):
 *
 * | key      | m | v | name                         | languages | custom.fields                                                         |
 * |----------|---|---|------------------------------|-----------|-----------------------------------------------------------------------|
 * | berlin   | 1 | 1 | en Berlin, de Berlin         | en, de    | label "alpha", size 5, active true, tags [x, y], title {en Big}, gold |
 * | paris    | 2 | 1 | en Paris, fr Paris           | fr        | label `Say "hi"`, size -2.5, active false, tags [], silver            |
 * | rome     | 3 | 3 | en Rome, it Roma (updated)   | [] (upd.) | size 3, active true, tags [y], title {en Small, de Klein}, bronze     |
 * | oslo     | 4 | 2 | en Oslo (updated)            | en        | (no custom)                                                           |
 * | nameless | 5 | 1 | (no name)                    | en, fr    | label "42", size 42, tags [x]                                         |
 * | tokyo    | 6 | 1 | en "Tōkyō 東京", ja 東京       | ja        | label `a\b`, size 3.75, active false, tags [x, "z z"], gold           |
 *
 * Updates: rome at 00:10 (setName) and 00:11 (setLanguages []), oslo at 00:12 (setName).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { get, isErrorShape, post, type Json, type Params } from './fixtures.js';

const P = 'query-http';
const OTHER = 'query-http-other';
const MINUTE = 60_000;

const ALL = ['berlin', 'nameless', 'oslo', 'paris', 'rome', 'tokyo'];
const except = (...excluded: string[]): string[] => ALL.filter((key) => !excluded.includes(key));

const TYPE_DRAFT = {
  key: 'store-fields',
  name: { en: 'Store fields' },
  resourceTypeIds: ['store'],
  fieldDefinitions: [
    { name: 'label', type: { name: 'String' }, required: false, label: { en: 'Label' } },
    { name: 'size', type: { name: 'Number' }, required: false, label: { en: 'Size' } },
    { name: 'active', type: { name: 'Boolean' }, required: false, label: { en: 'Active' } },
    { name: 'tags', type: { name: 'Set', elementType: { name: 'String' } }, required: false, label: { en: 'Tags' } },
    { name: 'title', type: { name: 'LocalizedString' }, required: false, label: { en: 'Title' } },
    {
      name: 'tier',
      type: { name: 'Enum', values: ['gold', 'silver', 'bronze'].map((key) => ({ key, label: key.toUpperCase() })) },
      required: false,
      label: { en: 'Tier' },
    },
  ],
};

const custom = (fields: Json) => ({ type: { typeId: 'type', key: 'store-fields' }, fields });

/** Store drafts in creation order (one clock minute apart). */
const STORES: Json[] = [
  {
    key: 'berlin',
    name: { en: 'Berlin', de: 'Berlin' },
    languages: ['en', 'de'],
    custom: custom({ label: 'alpha', size: 5, active: true, tags: ['x', 'y'], title: { en: 'Big' }, tier: 'gold' }),
  },
  {
    key: 'paris',
    name: { en: 'Paris', fr: 'Paris' },
    languages: ['fr'],
    custom: custom({ label: 'Say "hi"', size: -2.5, active: false, tags: [], tier: 'silver' }),
  },
  {
    key: 'rome',
    name: { en: 'Rom' },
    languages: ['it'],
    custom: custom({ size: 3, active: true, tags: ['y'], title: { en: 'Small', de: 'Klein' }, tier: 'bronze' }),
  },
  { key: 'oslo', name: { en: 'Christiania' }, languages: ['en'] },
  { key: 'nameless', languages: ['en', 'fr'], custom: custom({ label: '42', size: 42, tags: ['x'] }) },
  {
    key: 'tokyo',
    name: { en: 'Tōkyō 東京', ja: '東京' },
    languages: ['ja'],
    custom: custom({ label: 'a\\b', size: 3.75, active: false, tags: ['x', 'z z'], tier: 'gold' }),
  },
];

const money = (centAmount: number) => ({ currencyCode: 'EUR', centAmount });
const item = (sku: string, en: string, centAmount: number, quantity: number, de?: string) => ({
  sku,
  name: de === undefined ? { en } : { en, de },
  externalPrice: money(centAmount),
  quantity,
});

/** Carts: lineItems is an array of objects (apple 1.00, pear 2.50, kiwi 4.00). */
const CARTS: Json[] = [
  { key: 'c-apples', currency: 'EUR', lineItems: [item('SKU-A', 'Apple', 100, 3), item('SKU-P', 'Pear', 250, 1)] }, // total 550
  { key: 'c-pears', currency: 'EUR', lineItems: [item('SKU-P', 'Pear', 250, 2)] }, // total 500
  { key: 'c-mixed', currency: 'EUR', lineItems: [item('SKU-A', 'Apple', 100, 1), item('SKU-K', 'Kiwi', 400, 5, 'Kiwi')] }, // 2100
  { key: 'c-empty', currency: 'EUR', lineItems: [] }, // total 0
];
const ALL_CARTS = ['c-apples', 'c-empty', 'c-mixed', 'c-pears'];

interface PredicateCase {
  /** One or several `where` parameters; `{id:<key>}` is replaced by that store's id. */
  where: string | string[];
  /** `var.<name>` parameters; a name with several values is repeated in the URL. */
  vars?: Record<string, string[]>;
  /** Keys of the resources the predicate selects, in any order. */
  keys: string[];
}

/**
 * Predicates on stores, grouped by feature. Worked out by hand from the seed table above.
 */
const STORE_CASES: Record<string, PredicateCase[]> = {
  'precedence: "and" binds tighter than "or"; parentheses': [
    // and-first: paris ∪ (berlin ∩ active) = {berlin, paris}; or-first would give {berlin}.
    { where: 'key = "paris" or key = "berlin" and custom(fields(active = true))', keys: ['berlin', 'paris'] },
    // and-first: (active ∩ rome) ∪ oslo = {oslo, rome}; or-first would give {rome}.
    { where: 'custom(fields(active = true)) and key = "rome" or key = "oslo"', keys: ['oslo', 'rome'] },
    { where: '(key = "paris" or key = "berlin") and custom(fields(active = true))', keys: ['berlin'] },
    { where: 'custom(fields(active = true)) and (key = "rome" or key = "oslo")', keys: ['rome'] },
    { where: 'key = "paris" or (key = "berlin" and custom(fields(active = false)))', keys: ['paris'] },
    { where: 'key = "oslo" OR key = "rome" AND version = 1', keys: ['oslo'] },
    { where: '((key = "oslo"))', keys: ['oslo'] },
    { where: 'key = "a" or key = "berlin" or key = "b" or key = "tokyo" and version = 1 or key = "c"', keys: ['berlin', 'tokyo'] },
  ],
  'not(…)': [
    { where: 'not(key = "berlin" or key = "paris")', keys: except('berlin', 'paris') },
    { where: 'not(key = "berlin") and not(key = "paris")', keys: except('berlin', 'paris') },
    { where: 'not(not(key = "oslo"))', keys: ['oslo'] },
    // Plain negation: stores without the field (nameless, oslo) match.
    { where: 'not(custom(fields(active = true)))', keys: ['nameless', 'oslo', 'paris', 'tokyo'] },
    { where: 'not(name(en = "Berlin"))', keys: except('berlin') },
    { where: 'key IN ("berlin", "rome") AND NOT(version > 1)', keys: ['berlin'] },
    { where: 'custom(fields(size > 3)) and not(custom(fields(active = false)))', keys: ['berlin', 'nameless'] },
  ],
  'comparison operators on key and version': [
    { where: 'key = "tokyo"', keys: ['tokyo'] },
    { where: 'key != "tokyo"', keys: except('tokyo') },
    { where: 'key <> "tokyo"', keys: except('tokyo') },
    { where: 'key < "oslo"', keys: ['berlin', 'nameless'] },
    { where: 'key <= "oslo"', keys: ['berlin', 'nameless', 'oslo'] },
    { where: 'key > "rome"', keys: ['tokyo'] },
    { where: 'key >= "rome"', keys: ['rome', 'tokyo'] },
    { where: 'key in ("berlin", "rome", "nowhere")', keys: ['berlin', 'rome'] },
    { where: 'key not in ("berlin", "rome")', keys: ['nameless', 'oslo', 'paris', 'tokyo'] },
    { where: 'key contains any ("oslo", "rome")', keys: ['oslo', 'rome'] },
    { where: 'key is defined', keys: ALL },
    { where: 'key = "Berlin"', keys: [] },
    { where: 'version = 3', keys: ['rome'] },
    { where: 'version > 1', keys: ['oslo', 'rome'] },
    { where: 'version >= 2 and version <= 2', keys: ['oslo'] },
    { where: 'version != 1', keys: ['oslo', 'rome'] },
    { where: 'version = 1.0', keys: ['berlin', 'nameless', 'paris', 'tokyo'] },
    { where: 'version < 2.5', keys: except('rome') },
    { where: 'version in (2, 3)', keys: ['oslo', 'rome'] },
    { where: 'version > -1', keys: ALL },
  ],
  'id (also as in §4.4.6)': [
    { where: 'id = "{id:berlin}"', keys: ['berlin'] },
    { where: 'id != "{id:berlin}"', keys: except('berlin') },
    { where: 'id in ("{id:oslo}", "{id:tokyo}")', keys: ['oslo', 'tokyo'] },
    { where: 'id = :id', vars: { id: ['{id:paris}'] }, keys: ['paris'] },
    { where: 'id = "no-such-id"', keys: [] },
  ],
  'timestamps (createdAt, lastModifiedAt)': [
    { where: 'createdAt > "2025-01-01T00:03:00.000Z"', keys: ['nameless', 'oslo', 'tokyo'] },
    { where: 'createdAt >= "2025-01-01T00:03:00Z"', keys: ['nameless', 'oslo', 'rome', 'tokyo'] },
    // 01:02+01:00 is 00:02Z: only berlin (00:01) was created before.
    { where: 'createdAt < "2025-01-01T01:02:00+01:00"', keys: ['berlin'] },
    { where: 'createdAt = "2025-01-01T00:05:00.000Z"', keys: ['nameless'] },
    { where: 'createdAt <= "2025-01-01"', keys: [] },
    { where: 'createdAt > "2024-12-31" and createdAt < "2025-01-01T00:02:30Z"', keys: ['berlin', 'paris'] },
    { where: 'lastModifiedAt > "2025-01-01T00:09:00Z"', keys: ['oslo', 'rome'] },
    { where: 'createdAt > :t', vars: { t: ['2025-01-01T00:04:30Z'] }, keys: ['nameless', 'tokyo'] },
  ],
  'strings: escapes, unicode, case': [
    { where: String.raw`custom(fields(label = "Say \"hi\""))`, keys: ['paris'] },
    { where: String.raw`custom(fields(label = "a\\b"))`, keys: ['tokyo'] },
    { where: 'name(en = "Tōkyō 東京")', keys: ['tokyo'] },
    { where: String.raw`name(en = "T\u014dky\u014d \u6771\u4eac")`, keys: ['tokyo'] },
    { where: 'name(ja = "東京")', keys: ['tokyo'] },
    { where: 'name(en = "berlin")', keys: [] },
    { where: `name(en = "'; DROP TABLE resources; --")`, keys: [] },
    { where: String.raw`key = "berlin\" or \"1\" = \"1"`, keys: [] },
    { where: 'custom(fields(label = "42"))', keys: ['nameless'] },
    { where: 'custom(fields(label = 42))', keys: [] },
  ],
  'nested fields: name(…), custom(fields(…))': [
    { where: 'name(en = "Berlin" and de = "Berlin")', keys: ['berlin'] },
    { where: 'name(en = "Rome" and it = "Roma")', keys: ['rome'] },
    { where: 'name(en = "Rom")', keys: [] },
    { where: 'name(fr is defined)', keys: ['paris'] },
    { where: 'name(en = "Oslo") or name(fr = "Paris")', keys: ['oslo', 'paris'] },
    { where: 'name(en = "Oslo" or en = "Paris")', keys: ['oslo', 'paris'] },
    { where: 'name(en > "P")', keys: ['paris', 'rome', 'tokyo'] },
    { where: 'custom(fields(size > 3))', keys: ['berlin', 'nameless', 'tokyo'] },
    { where: 'custom(fields(title(de = "Klein")))', keys: ['rome'] },
    { where: 'custom(fields(title is defined))', keys: ['berlin', 'rome'] },
    { where: 'custom(fields(tier in ("gold", "bronze")))', keys: ['berlin', 'rome', 'tokyo'] },
    { where: 'custom(fields(tier = "silver"))', keys: ['paris'] },
    { where: 'custom(fields(size > 0 and active = true))', keys: ['berlin', 'rome'] },
    { where: 'custom(type(typeId = "type"))', keys: except('oslo') },
  ],
  'numbers: negative, decimal, type-aware': [
    { where: 'custom(fields(size = 5))', keys: ['berlin'] },
    { where: 'custom(fields(size = 5.0))', keys: ['berlin'] },
    { where: 'custom(fields(size = -2.5))', keys: ['paris'] },
    { where: 'custom(fields(size < 0))', keys: ['paris'] },
    { where: 'custom(fields(size <= -2.5))', keys: ['paris'] },
    { where: 'custom(fields(size >= 3))', keys: ['berlin', 'nameless', 'rome', 'tokyo'] },
    { where: 'custom(fields(size > -3 and size < 3.8))', keys: ['paris', 'rome', 'tokyo'] },
    { where: 'custom(fields(size = 3.75))', keys: ['tokyo'] },
    { where: 'custom(fields(size = 375e-2))', keys: ['tokyo'] },
    { where: 'custom(fields(size != 5))', keys: ['nameless', 'paris', 'rome', 'tokyo'] },
    { where: 'custom(fields(size <> 5))', keys: ['nameless', 'paris', 'rome', 'tokyo'] },
    { where: 'custom(fields(size = "5"))', keys: [] },
    { where: 'custom(fields(size in (5, 42, 7)))', keys: ['berlin', 'nameless'] },
    { where: 'custom(fields(size not in (5, 42)))', keys: ['paris', 'rome', 'tokyo'] },
  ],
  booleans: [
    { where: 'custom(fields(active = true))', keys: ['berlin', 'rome'] },
    { where: 'custom(fields(active = false))', keys: ['paris', 'tokyo'] },
    { where: 'custom(fields(active = TRUE))', keys: ['berlin', 'rome'] },
    { where: 'custom(fields(active != true))', keys: ['paris', 'tokyo'] },
    { where: 'custom(fields(active = "true"))', keys: [] },
  ],
  'typed variables': [
    { where: 'custom(fields(size = :n))', vars: { n: ['5'] }, keys: ['berlin'] },
    // "42" is the number 42 of nameless's size …
    { where: 'custom(fields(size = :n))', vars: { n: ['42'] }, keys: ['nameless'] },
    // … and the string "42" of nameless's label.
    { where: 'custom(fields(label = :n))', vars: { n: ['42'] }, keys: ['nameless'] },
    { where: 'custom(fields(size = :n))', vars: { n: ['-2.5'] }, keys: ['paris'] },
    { where: 'custom(fields(active = :b))', vars: { b: ['true'] }, keys: ['berlin', 'rome'] },
    { where: 'custom(fields(active = :b))', vars: { b: ['false'] }, keys: ['paris', 'tokyo'] },
    // Ordering: a numeric variable compares as a number, any other as a string (code points).
    { where: 'custom(fields(size > :n))', vars: { n: ['3.5'] }, keys: ['berlin', 'nameless', 'tokyo'] },
    { where: 'custom(fields(label > :s))', vars: { s: ['Z'] }, keys: ['berlin', 'tokyo'] },
    { where: 'custom(fields(label = :s))', vars: { s: ['Say "hi"'] }, keys: ['paris'] },
    { where: 'key = :k', vars: { k: ['rome'] }, keys: ['rome'] },
    { where: 'version = :v', vars: { v: ['3'] }, keys: ['rome'] },
    { where: 'version >= :v', vars: { v: ['2'] }, keys: ['oslo', 'rome'] },
    { where: 'key in :keys', vars: { keys: ['berlin', 'oslo', 'nowhere'] }, keys: ['berlin', 'oslo'] },
    { where: 'key in (:a, "tokyo", :b)', vars: { a: ['paris'], b: ['rome', 'oslo'] }, keys: ['oslo', 'paris', 'rome', 'tokyo'] },
    { where: 'custom(fields(size in :n))', vars: { n: ['5', '3.75'] }, keys: ['berlin', 'tokyo'] },
  ],
  'arrays: contains, in, is empty, is defined': [
    { where: 'languages = "en"', keys: ['berlin', 'nameless', 'oslo'] },
    { where: 'languages contains any ("fr", "de")', keys: ['berlin', 'nameless', 'paris'] },
    { where: 'languages contains all ("en", "de")', keys: ['berlin'] },
    { where: 'languages contains all ("en")', keys: ['berlin', 'nameless', 'oslo'] },
    { where: 'languages contains any :langs', vars: { langs: ['fr', 'ja'] }, keys: ['nameless', 'paris', 'tokyo'] },
    { where: 'languages contains all :langs', vars: { langs: ['en', 'fr'] }, keys: ['nameless'] },
    { where: 'languages contains any :langs', vars: { langs: ['it'] }, keys: [] },
    // Defined and no element equal: the empty array of rome matches.
    { where: 'languages != "en"', keys: ['paris', 'rome', 'tokyo'] },
    { where: 'languages not in ("en", "fr")', keys: ['rome', 'tokyo'] },
    { where: 'languages is empty', keys: ['rome'] },
    { where: 'languages is not empty', keys: except('rome') },
    { where: 'custom(fields(tags is empty))', keys: ['paris'] },
    { where: 'custom(fields(tags is not empty))', keys: ['berlin', 'nameless', 'rome', 'tokyo'] },
    { where: 'custom(fields(tags contains all ("x", "y")))', keys: ['berlin'] },
    { where: 'custom(fields(tags contains any ("z z", "y")))', keys: ['berlin', 'rome', 'tokyo'] },
    { where: 'name is defined', keys: except('nameless') },
    { where: 'name is not defined', keys: ['nameless'] },
    { where: 'custom is not defined', keys: ['oslo'] },
    { where: 'custom(fields(label is not defined))', keys: ['rome'] },
    { where: 'nothing is defined', keys: [] },
    { where: 'nothing is not defined', keys: ALL },
  ],
  'several where parameters are AND-ed': [
    { where: ['custom(fields(size > 0))', 'custom(fields(active = true))'], keys: ['berlin', 'rome'] },
    { where: ['languages = "en"', 'key != "oslo"', 'name is defined'], keys: ['berlin'] },
    { where: ['key = "berlin" or key = "paris"', 'key = "paris" or key = "rome"'], keys: ['paris'] },
    { where: ['version = 1', 'custom(fields(size = :n))'], vars: { n: ['42'] }, keys: ['nameless'] },
    { where: ['key = "berlin"', 'key = "paris"'], keys: [] },
  ],
};

/** Nested array predicates over `lineItems` (an array of objects) on carts. */
const CART_CASES: PredicateCase[] = [
  { where: 'lineItems(quantity > 1 and name(en = "Apple"))', keys: ['c-apples'] },
  { where: 'lineItems(quantity > 1) and lineItems(name(en = "Apple"))', keys: ['c-apples', 'c-mixed'] },
  { where: 'lineItems(name(en = "Pear"))', keys: ['c-apples', 'c-pears'] },
  { where: 'lineItems(quantity = 2 or name(en = "Kiwi"))', keys: ['c-mixed', 'c-pears'] },
  { where: 'lineItems(not(quantity > 1))', keys: ['c-apples', 'c-mixed'] },
  { where: 'not(lineItems(quantity > 1))', keys: ['c-empty'] },
  { where: 'lineItems(quantity in (2, 5))', keys: ['c-mixed', 'c-pears'] },
  { where: 'lineItems(variant(sku = "SKU-K"))', keys: ['c-mixed'] },
  { where: 'lineItems(name(de is defined))', keys: ['c-mixed'] },
  { where: 'lineItems(totalPrice(centAmount >= 500))', keys: ['c-mixed', 'c-pears'] },
  { where: 'lineItems is empty', keys: ['c-empty'] },
  { where: 'lineItems is not empty', keys: ['c-apples', 'c-mixed', 'c-pears'] },
  { where: 'totalPrice(centAmount >= 550)', keys: ['c-apples', 'c-mixed'] },
  { where: 'lineItems(quantity > :q)', vars: { q: ['2'] }, keys: ['c-apples', 'c-mixed'] },
  { where: 'key in ("c-apples", "c-empty") and not(lineItems(name(en = "Apple")))', keys: ['c-empty'] },
];

/** `where=… & where=… var.x=a,b → [keys]`, the name of a case's test. */
function title({ where, vars, keys }: PredicateCase): string {
  const predicates = (typeof where === 'string' ? [where] : where).join(' & ');
  const variables = Object.entries(vars ?? {}).map(([name, values]) => ` var.${name}=${values.join(',')}`);
  return `${predicates}${variables.join('')} → [${keys.join(', ')}]`;
}

interface SortCase {
  sort: string[];
  where?: string;
  /** The exact order of the keys on the page. */
  order: string[];
}

/**
 * Sorts (§4.4.5): missing values last ascending and first descending. All names start with
 * different capitals, so jsonb's collation-dependent string order is the same on every server.
 */
const SORTS: SortCase[] = [
  { sort: ['key asc'], order: ['berlin', 'nameless', 'oslo', 'paris', 'rome', 'tokyo'] },
  { sort: ['key desc'], order: ['tokyo', 'rome', 'paris', 'oslo', 'nameless', 'berlin'] },
  { sort: ['key DESC'], order: ['tokyo', 'rome', 'paris', 'oslo', 'nameless', 'berlin'] },
  { sort: ['createdAt'], order: ['berlin', 'paris', 'rome', 'oslo', 'nameless', 'tokyo'] },
  { sort: ['createdAt desc'], order: ['tokyo', 'nameless', 'oslo', 'rome', 'paris', 'berlin'] },
  { sort: ['lastModifiedAt desc'], order: ['oslo', 'rome', 'tokyo', 'nameless', 'paris', 'berlin'] },
  { sort: ['version desc', 'key asc'], order: ['rome', 'oslo', 'berlin', 'nameless', 'paris', 'tokyo'] },
  { sort: ['version asc', 'createdAt desc'], order: ['tokyo', 'nameless', 'paris', 'berlin', 'oslo', 'rome'] },
  { sort: ['name.en asc'], order: ['berlin', 'oslo', 'paris', 'rome', 'tokyo', 'nameless'] },
  { sort: ['name.en desc'], order: ['nameless', 'tokyo', 'rome', 'paris', 'oslo', 'berlin'] },
  { sort: ['custom.fields.size asc'], order: ['paris', 'rome', 'tokyo', 'berlin', 'nameless', 'oslo'] },
  { sort: ['custom.fields.size desc'], order: ['oslo', 'nameless', 'berlin', 'tokyo', 'rome', 'paris'] },
  // false < true in jsonb; descending puts the missing first; key breaks the ties.
  { sort: ['custom.fields.active desc', 'key asc'], order: ['nameless', 'oslo', 'berlin', 'rome', 'paris', 'tokyo'] },
  { sort: ['custom.fields.tier asc', 'createdAt desc'], order: ['rome', 'tokyo', 'berlin', 'paris', 'nameless', 'oslo'] },
  { sort: ['name.en desc'], where: 'custom(fields(size > 3))', order: ['nameless', 'tokyo', 'berlin'] },
  { sort: ['custom.fields.size asc'], where: 'languages is not empty and custom is defined', order: ['paris', 'tokyo', 'berlin', 'nameless'] },
];

describe(`query predicates through HTTP on ${process.env.DATABASE_URL?.startsWith('postgres') === true ? 'PostgreSQL' : 'PGlite'}`, () => {
  let gateway: TestGateway;
  let token: string;
  /** Store key → id in project P; and every id of project P (stores and carts). */
  const ids = new Map<string, string>();
  const otherIds = new Set<string>();

  beforeAll(async () => {
    const clock = new ManualClock('2025-01-01T00:00:00.000Z');
    gateway = await startTestGateway({ projects: [P, OTHER], clock });
    const scopes = ['manage_types', 'manage_stores', 'manage_orders'];
    token = await tokenFor(gateway, P, scopes);
    const otherToken = await tokenFor(gateway, OTHER, scopes);

    await post(gateway, token, `/${P}/types`, TYPE_DRAFT);
    await post(gateway, otherToken, `/${OTHER}/types`, TYPE_DRAFT);
    for (const draft of STORES) {
      clock.advance(MINUTE);
      const store = await post(gateway, token, `/${P}/stores`, draft);
      ids.set(draft.key as string, store.id as string);
      // The other project has a store with the same key and content: it must never show up.
      otherIds.add((await post(gateway, otherToken, `/${OTHER}/stores`, draft)).id as string);
    }
    clock.advance(4 * MINUTE); // 00:10
    const update = (key: string, version: number, actions: Json[]) => post(gateway, token, `/${P}/stores/key=${key}`, { version, actions }, 200);
    await update('rome', 1, [{ action: 'setName', name: { en: 'Rome', it: 'Roma' } }]);
    clock.advance(MINUTE);
    await update('rome', 2, [{ action: 'setLanguages', languages: [] }]);
    clock.advance(MINUTE);
    await update('oslo', 1, [{ action: 'setName', name: { en: 'Oslo' } }]);

    for (const draft of CARTS) {
      ids.set(draft.key as string, (await post(gateway, token, `/${P}/carts`, draft)).id as string);
      otherIds.add((await post(gateway, otherToken, `/${OTHER}/carts`, draft)).id as string);
    }
  });
  afterAll(() => gateway?.close());

  /** Replaces `{id:<key>}` with the id of that resource of project P. */
  const withIds = (text: string): string =>
    text.replace(/\{id:([a-z-]+)\}/g, (_, key: string) => {
      const id = ids.get(key);
      if (id === undefined) throw new Error(`no id for ${key}`);
      return id;
    });

  const paramsOf = ({ where, vars }: Pick<PredicateCase, 'where' | 'vars'>): Array<[string, string]> => [
    ...(typeof where === 'string' ? [where] : where).map((text): [string, string] => ['where', withIds(text)]),
    ...Object.entries(vars ?? {}).flatMap(([name, values]) => values.map((value): [string, string] => [`var.${name}`, withIds(value)])),
  ];

  /** Runs a query that must succeed; checks that every result is of project P; returns the page. */
  async function page(resource: 'stores' | 'carts', params: Params): Promise<Json> {
    const answer = await get(gateway, token, `/${P}/${resource}`, params);
    expect(answer.status, `${answer.url} → ${JSON.stringify(answer.body)}`).toBe(200);
    const results = answer.body.results as Json[];
    for (const result of results) {
      expect(otherIds.has(result.id as string), `a resource of ${OTHER} in ${answer.url}`).toBe(false);
      expect(ids.get(result.key as string), `unknown result ${result.key} for ${answer.url}`).toBe(result.id);
    }
    expect(answer.body.count).toBe(results.length);
    return answer.body;
  }

  async function selectedKeys(resource: 'stores' | 'carts', testCase: PredicateCase): Promise<string[]> {
    const body = await page(resource, [...paramsOf(testCase), ['limit', '500']]);
    // With a predicate, `total` is the (capped) number of matches: here all of them.
    expect(body.total).toBe(body.results.length);
    return (body.results as Json[]).map((result) => result.key as string).sort();
  }

  for (const [feature, cases] of Object.entries(STORE_CASES)) {
    describe(`stores: ${feature}`, () => {
      it.each(cases.map((testCase) => [title(testCase), testCase] as const))('%s', async (_, testCase) => {
        expect(await selectedKeys('stores', testCase)).toEqual([...testCase.keys].sort());
      });
    });
  }

  describe('carts: nested array predicates over lineItems', () => {
    it.each(CART_CASES.map((testCase) => [title(testCase), testCase] as const))('%s', async (_, testCase) => {
      expect(await selectedKeys('carts', testCase)).toEqual([...testCase.keys].sort());
    });

    it('returns every cart of the project without a predicate', async () => {
      expect(await selectedKeys('carts', { where: [], keys: [] })).toEqual(ALL_CARTS);
    });
  });

  describe('sort', () => {
    for (const withTotal of [true, false]) {
      it.each(
        SORTS.map(
          (sortCase) =>
            [`${sortCase.sort.join(', ')}${sortCase.where === undefined ? '' : ` where ${sortCase.where}`}, withTotal=${withTotal}`, sortCase] as const,
        ),
      )('%s', async (_, { sort, where, order }) => {
        const params: Array<[string, string]> = [
          ...sort.map((value): [string, string] => ['sort', value]),
          ...(where === undefined ? [] : [['where', where] as [string, string]]),
          ['withTotal', String(withTotal)],
        ];
        const body = await page('stores', params);
        expect((body.results as Json[]).map((result) => result.key)).toEqual(order);
        if (withTotal) expect(body.total).toBe(order.length);
        else expect(body).not.toHaveProperty('total');
      });
    }

    it('pages a filtered, sorted result with limit and offset; total counts all matches', async () => {
      const body = await page('stores', [
        ['where', 'languages is not empty'],
        ['sort', 'key desc'],
        ['limit', '2'],
        ['offset', '1'],
      ]);
      expect(body).toMatchObject({ limit: 2, offset: 1, count: 2, total: 5 });
      expect((body.results as Json[]).map((result) => result.key)).toEqual(['paris', 'oslo']);
    });

    it('counts only the project in total without a predicate', async () => {
      const body = await page('stores', []);
      expect(body).toMatchObject({ limit: 20, offset: 0, count: 6, total: 6 });
    });

    it('iterates over all elements with sort=id asc and where=id > <last id> (§4.4.6)', async () => {
      const seen: string[] = [];
      let last: string | undefined;
      for (let round = 0; round < 10; round++) {
        const params: Array<[string, string]> = [
          ['withTotal', 'false'],
          ['limit', '4'],
          ['sort', 'id asc'],
          ...(last === undefined ? [] : [['where', `id > "${last}"`] as [string, string]]),
        ];
        const results = (await page('stores', params)).results as Json[];
        seen.push(...results.map((result) => result.key as string));
        if (results.length < 4) break;
        last = results.at(-1)?.id as string;
      }
      expect(seen).toHaveLength(ALL.length);
      expect([...seen].sort()).toEqual(ALL);
      const byId = [...ALL].sort((a, b) => ((ids.get(a) ?? '') < (ids.get(b) ?? '') ? -1 : 1));
      expect(seen).toEqual(byId);
    });
  });

  /** Malformed predicates: 400 InvalidInput, and the message names the (0-based) position. */
  const SYNTAX_ERRORS: Array<{ where: string; position: number; vars?: Record<string, string[]> }> = [
    { where: 'key = ', position: 6 },
    { where: 'key == "x"', position: 5 },
    { where: '(key = "x"', position: 10 },
    { where: 'key = "x")', position: 9 },
    { where: 'key = "unterminated', position: 6 },
    { where: 'key ! "x"', position: 4 },
    { where: 'name(en = "x") xor key = "y"', position: 15 },
    { where: 'key in ("a", "b"', position: 16 },
    { where: 'key = "a" and', position: 13 },
    { where: String.raw`key = "\x"`, position: 7 },
    { where: 'key = -', position: 6 },
    { where: 'key @ "x"', position: 4 },
    // Positions count UTF-16 code units (here the same as characters).
    { where: 'name(en = "東京") @', position: 16 },
    { where: 'key contains some ("a")', position: 13 },
    { where: 'not(key = "x"', position: 13 },
    { where: 'key is nothing', position: 7 },
    { where: 'key = :missing', position: 6 },
    { where: 'key = :k', position: 6, vars: { k: ['a', 'b'] } },
    { where: 'version = "1"', position: 10 },
    { where: 'version = :v', position: 10, vars: { v: ['three'] } },
    { where: 'createdAt > "yesterday"', position: 12 },
    { where: 'createdAt > "2025-02-30T00:00:00Z"', position: 12 },
    { where: 'key(en = "x")', position: 0 },
    { where: '', position: 0 },
    { where: `${'('.repeat(40)}key = "x"${')'.repeat(40)}`, position: 32 },
  ];

  describe('syntax and type errors', () => {
    it.each(SYNTAX_ERRORS)('$where → 400 at position $position', async ({ where, position, vars }) => {
      const answer = await get(gateway, token, `/${P}/stores`, paramsOf({ where, vars: vars ?? {} }));
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(isErrorShape(answer.body, 400), JSON.stringify(answer.body)).toBe(true);
      expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', position });
      expect(answer.body.message).toContain(`position ${position}`);
    });

    it.each([['key sideways'], ['name..en'], ['key asc desc'], ['lineItems[0].name']])('sort=%s → 400 InvalidInput', async (sort) => {
      const answer = await get(gateway, token, `/${P}/stores`, [['sort', sort]]);
      expect(answer.status).toBe(400);
      expect(isErrorShape(answer.body, 400)).toBe(true);
      expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', parameter: 'sort' });
    });
  });
});
