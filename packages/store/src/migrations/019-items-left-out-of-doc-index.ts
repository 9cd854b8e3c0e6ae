/**
 * The documents of the types that hold line items are indexed without their items
 * (documents/document-indexes.ts says why and how a test finds the right index). Both indexes keep
 * migration 017's small pending list. The item-holding types are written out here, not imported:
 * a released migration never changes; document-indexes.test.ts checks that the two agree.
 *
 * The new indexes are built before the old one is dropped: building takes a lock that lets reads
 * go on (writes wait), while DROP INDEX locks the table against reads too, until the migrating
 * transaction commits, so it comes last.
 */
export const itemsLeftOutOfDocIndex = `
CREATE INDEX resources_doc_whole_idx ON resources USING gin (doc jsonb_path_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 64)
  WHERE type_id NOT IN ('cart', 'order', 'quote-request', 'quote', 'shopping-list');
CREATE INDEX resources_doc_without_items_idx ON resources USING gin ((doc - '{lineItems,customLineItems}'::text[]) jsonb_path_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 64)
  WHERE type_id IN ('cart', 'order', 'quote-request', 'quote', 'shopping-list');
DROP INDEX resources_doc_idx;
ALTER INDEX resources_doc_whole_idx RENAME TO resources_doc_idx;
`;
