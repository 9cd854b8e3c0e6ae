import type { Queryable } from '@herald/store';
import { PRODUCT_TYPE_ID, type Product } from '../../products/product.js';
import { PUBLISHED_SQL } from '../fields.js';
import type { FilterExpression, TermValue } from './expression.js';
import type { TextQuery } from './text.js';

/**
 * The SQL half of a search: which products can match at all. Filters on ids, SKUs, keys and
 * attribute terms, and the words of a text without `fuzzy`, become jsonpath conditions on the
 * stored product (`r.doc @? …`; the GIN index on `doc` answers the id and SKU ones); everything
 * else (ranges, fuzzy text, scores, facets, sorting) is evaluated in process over the candidates
 * (search.ts). A condition is only ever wider than the filter it stands for, never narrower.
 */

/** Text that travels safely in a jsonpath string literal (no control characters, no lone surrogates). */
const SAFE = /^[^\p{Cc}\p{Cs}]*$/u;
const literal = (value: string): string => JSON.stringify(value);

function termCondition(term: TermValue, accessor: string, subtrees: ReadonlyMap<string, readonly string[]>): string | undefined {
  switch (term.kind) {
    case 'string':
      return SAFE.test(term.value) ? `${accessor} == ${literal(term.value)}` : undefined;
    case 'number':
      return Number.isFinite(term.value) ? `${accessor} == ${term.value}` : undefined;
    case 'boolean':
      return `${accessor} == ${term.value}`;
    case 'subtree': {
      const ids = subtrees.get(term.id) ?? [];
      if (!ids.every((id) => SAFE.test(id))) return undefined;
      return ids.length === 0 ? 'false' : ids.map((id) => `${accessor} == ${literal(id)}`).join(' || ');
    }
  }
}

function anyTerm(filter: FilterExpression, accessor: string, subtrees: ReadonlyMap<string, readonly string[]>): string | undefined {
  if (filter.test.kind !== 'terms') return undefined;
  const conditions = filter.test.values.map((term) => termCondition(term, accessor, subtrees));
  if (conditions.some((condition) => condition === undefined)) return undefined;
  return conditions.map((condition) => `(${condition ?? 'false'})`).join(' || ');
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const member = (segments: readonly string[]): string => segments.map((segment) => `.${literal(segment)}`).join('');

/** The jsonpath of one filter over the product document, or undefined when it stays in process. */
function filterPath(filter: FilterExpression, data: string, subtrees: ReadonlyMap<string, readonly string[]>): string | undefined {
  const [head, ...rest] = filter.path;
  if (!filter.path.every((segment) => SEGMENT.test(segment))) return undefined;
  const id = member(['id']);
  if (head === 'categories' && rest.join('.') === 'id') return wrap(`${data}${member(['categories'])}`, anyTerm(filter, `@${id}`, subtrees));
  if ((head === 'productType' || head === 'taxCategory' || head === 'state') && rest.join('.') === 'id')
    return wrap(`$${member([head])}`, anyTerm(filter, `@${id}`, subtrees));
  if (head !== 'variants') return undefined;
  const [field, name, ...inner] = rest;
  if ((field === 'sku' || field === 'key') && name === undefined) {
    const lists = ['masterVariant', 'variants'].map((list) => anyTerm(filter, `@${member([list, field])}`, subtrees));
    return lists.some((condition) => condition === undefined) ? undefined : `${data} ? (${lists.map((condition) => `(${condition ?? 'false'})`).join(' || ')})`;
  }
  if (field === 'attributes' && name !== undefined) {
    // Only the value itself or an enum's key (stored as the key alone or as {key, label}, values.ts).
    if (inner.length > 1 || (inner.length === 1 && inner[0] !== 'key')) return undefined;
    const accessors = inner.length === 0 ? [member(['value'])] : [member(['value']), member(['value', 'key'])];
    const conditions = accessors.map((accessor) => anyTerm(filter, `@${accessor}`, subtrees));
    if (conditions.some((condition) => condition === undefined)) return undefined;
    const value = conditions.map((condition) => `(${condition ?? 'false'})`).join(' || ');
    const attribute = `@${member(['name'])} == ${literal(name)} && (${value})`;
    const inList = (list: string): string => `exists(@${member([list, 'attributes'])} ? (${attribute}))`;
    return `${data} ? (${inList('masterVariant')} || ${inList('variants')})`;
  }
  return undefined;
}

function wrap(path: string, condition: string | undefined): string | undefined {
  return condition === undefined ? undefined : `${path} ? (${condition})`;
}

/** Each word of a non-fuzzy text occurs (as a substring, case-insensitive) in name, description or a keyword. */
function textPaths(text: TextQuery | undefined, data: string): string[] {
  if (text === undefined || text.fuzzyLevel > 0) return [];
  const fields = [member(['name', text.locale]), member(['description', text.locale]), member(['searchKeywords', text.locale, 'text'])];
  return text.words
    .filter((word) => SAFE.test(word))
    .map((word) => `${data} ? (${fields.map((field) => `@${field} like_regex ${literal(word)} flag "i"`).join(' || ')})`);
}

export interface Narrowing {
  staged: boolean;
  filters: readonly FilterExpression[];
  text: TextQuery | undefined;
  /** Category ids of each `subtree("…")` named (the category and its descendants). */
  subtrees: ReadonlyMap<string, readonly string[]>;
}

export async function candidateProducts(db: Queryable, projectKey: string, narrowing: Narrowing): Promise<Product[]> {
  const data = `$${member(['masterData', narrowing.staged ? 'staged' : 'current'])}`;
  const paths = [...narrowing.filters.flatMap((filter) => filterPath(filter, data, narrowing.subtrees) ?? []), ...textPaths(narrowing.text, data)];
  const conditions = [
    'r.project_key = $1',
    'r.type_id = $2',
    ...(narrowing.staged ? [] : [PUBLISHED_SQL]),
    ...paths.map((_, index) => `r.doc @? $${index + 3}::jsonpath`),
  ];
  const result = await db.query<{ doc: Product }>(`SELECT r.doc FROM resources r WHERE ${conditions.join(' AND ')}`, [projectKey, PRODUCT_TYPE_ID, ...paths]);
  return result.rows.map((row) => row.doc);
}

/** The categories below each category a `subtree("…")` names, with it (Category.ancestors). */
export async function categorySubtrees(db: Queryable, projectKey: string, filters: readonly FilterExpression[]): Promise<Map<string, string[]>> {
  const roots = new Set(
    filters.flatMap(({ test }) => (test.kind === 'terms' ? test.values.flatMap((term) => (term.kind === 'subtree' ? [term.id] : [])) : [])),
  );
  const subtrees = new Map<string, string[]>();
  for (const root of roots) {
    const below = await db.query<{ id: string }>(
      `SELECT r.id FROM resources r WHERE r.project_key = $1 AND r.type_id = 'category' AND r.doc @> jsonb_build_object('ancestors', jsonb_build_array(jsonb_build_object('id', $2::text)))`,
      [projectKey, root],
    );
    subtrees.set(root, [root, ...below.rows.map(({ id }) => id)]);
  }
  return subtrees;
}
