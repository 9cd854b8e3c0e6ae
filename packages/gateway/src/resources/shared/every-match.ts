import type { BaseResource } from '@herald/model';
import type { DocumentStore } from '@herald/store';

const PAGE = 500;

/**
 * Every document of `typeId` matching `predicate` (with its `vars`), in id order, read page by page
 * after the last id seen (keyset paging: no offset limit, and each page an index range).
 */
export async function everyMatch<D extends BaseResource>(
  store: DocumentStore,
  projectKey: string,
  typeId: string,
  predicate: string,
  vars: Readonly<Record<string, readonly string[]>>,
): Promise<D[]> {
  const found: D[] = [];
  let lastId: string | undefined;
  for (;;) {
    const page = await store.query<D>(projectKey, typeId, {
      where: [predicate, ...(lastId === undefined ? [] : ['id > :lastSeenId'])],
      vars: { ...vars, ...(lastId === undefined ? {} : { lastSeenId: [lastId] }) },
      sort: ['id asc'],
      limit: PAGE,
      withTotal: false,
    });
    found.push(...page.results);
    if (page.results.length < PAGE) return found;
    lastId = page.results[page.results.length - 1]?.id;
  }
}
