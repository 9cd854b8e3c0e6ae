/**
 * Migration 004 turned the GIN index's pending list off, because with the default 4 MB list every
 * predicate scanned thousands of pending entries after a bulk write. Off, each write inserts
 * every key path of its document into the index tree one by one, and a cart of 5 line items has
 * about 300: 2.2-2.6 ms and up to 45 kB of WAL per cart create, against 1.5 ms and 9.4 kB with a
 * pending list of 64 kB (docs/benchmarks.md). A list that small costs a predicate at most 8 pages
 * to scan, and is merged into the tree in bulk by the write that fills it.
 */
export const ginPendingList = `ALTER INDEX resources_doc_idx SET (fastupdate = on, gin_pending_list_limit = 64);`;
