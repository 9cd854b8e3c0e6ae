import type { DocumentStore } from '@herald/store';

/**
 * Runs `work` in one transaction on a store joined to it: what it writes (documents, their
 * messages and outbox rows) commits together or not at all (issue 27: "the quote request, staged
 * quote, quote, cart and order changes of one request commit together with their messages").
 */
export function writeTogether<T>(documents: DocumentStore, work: (store: DocumentStore) => Promise<T>): Promise<T> {
  return documents.db.transaction((tx) => work(documents.within(tx)));
}
