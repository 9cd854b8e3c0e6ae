/**
 * Which GIN index answers a test (`@?`, `@>`) on a resource document (migration 019).
 *
 * A document with line items holds most of its key paths in them: each item copies its product
 * variant (prices, attributes, images), and a cart of 5 items has about 210 key paths, 185 of them
 * under `lineItems`. With every one in the index, PostgreSQL spent 2.5 times as much CPU on a cart
 * create as with none of them (docs/benchmarks.md, session 21). So the documents of the types that
 * hold items are indexed without their items (`resources_doc_without_items_idx`), and all other
 * documents whole (`resources_doc_idx`).
 *
 * A test that reads only members outside the items is answered by that index when it is written
 * over the same expression (`withoutItemsSql`) and its statement names the type, so that
 * PostgreSQL can prove the index's condition. A test that reads the items (a `lineItems(…)`
 * predicate, a jsonpath with `**`) is made on the whole document of every resource of the project
 * and type: correct, not indexed. Every other type's tests use `r.doc` as before.
 */

import { type DocumentOf, wholeDocument } from '../query/columns.js';

/** The types whose documents hold line items (Cart, Order, QuoteRequest, Quote, ShoppingList). */
export const ITEM_HOLDING_TYPES: readonly string[] = ['cart', 'order', 'quote-request', 'quote', 'shopping-list'];

/** The members left out of their index: the items. */
export const UNINDEXED_MEMBERS: readonly string[] = ['lineItems', 'customLineItems'];

const holding = new Set(ITEM_HOLDING_TYPES);
const unindexed = new Set(UNINDEXED_MEMBERS);
const quotedList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/** The index's expression over `alias`'s document; a test must use exactly this text to be answered by it. */
export const withoutItemsSql = (alias: string) => `(${alias}.doc - '{${UNINDEXED_MEMBERS.join(',')}}'::text[])`;

/**
 * The condition of the items index, as SQL over `alias`, and of the whole-document index: a
 * statement over several types adds it as written, so that the planner sees the index's own
 * condition (literal type ids: a statement's `type_id = $2` proves it only in a custom plan).
 */
export const holdsItemsSql = (alias: string) => `${alias}.type_id IN (${quotedList(ITEM_HOLDING_TYPES)})`;
export const holdsNoItemsSql = (alias: string) => `${alias}.type_id NOT IN (${quotedList(ITEM_HOLDING_TYPES)})`;

export function holdsItems(typeId: string): boolean {
  return holding.has(typeId);
}

/** True when `member`, a top-level member of a document, is one of the items left out of the index. */
export function isItemsMember(member: string): boolean {
  return unindexed.has(member);
}

/**
 * True when a jsonpath (as written by the gateway, not by users: their predicates are compiled
 * member by member) may read the items: it names them, or reads members it does not name
 * (`**`, `.*`, `.keyvalue()`), or has an escape that could spell their name (`"\u006cineItems"`).
 * Erring on "yes" costs an unindexed scan, never a wrong answer.
 */
export function jsonpathMayReadItems(jsonpath: string): boolean {
  return /\*\*|\.\s*\*|keyvalue|\\/.test(jsonpath) || UNINDEXED_MEMBERS.some((member) => jsonpath.includes(member));
}

/**
 * The document SQL (over `alias`) that a test on a `typeId` document should read so that an index
 * answers it: the document without its items when the type holds items and the test does not read
 * them (`readsItems`), else the whole document.
 */
export function testedDocumentSql(typeId: string, readsItems: boolean, alias = 'r'): string {
  return holdsItems(typeId) && !readsItems ? withoutItemsSql(alias) : `${alias}.doc`;
}

/**
 * The condition of the index that holds `typeId`'s documents, for a statement that names its type
 * as a parameter (`type_id = $2`): PostgreSQL proves a partial index's condition from a parameter
 * only in a custom plan, and a prepared statement's generic plan, or `plan_cache_mode =
 * force_generic_plan`, would read without the index.
 */
export function indexConditionSql(typeId: string, alias = 'r'): string {
  return holdsItems(typeId) ? holdsItemsSql(alias) : holdsNoItemsSql(alias);
}

/** For a query of `typeId` documents (QueryParameters.documentOf): the document SQL that tests each top-level member. */
export function documentOfType(typeId: string): DocumentOf {
  return holdsItems(typeId) ? (member) => testedDocumentSql(typeId, isItemsMember(member)) : wholeDocument;
}
