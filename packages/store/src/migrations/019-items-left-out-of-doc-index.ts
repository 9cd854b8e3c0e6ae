/**
 * The documents of the types that hold line items are indexed without their items
 * (documents/document-indexes.ts says why and how a test finds the right index). Both indexes keep
 * migration 017's small pending list. The item-holding types are written out here, not imported:
 * a released migration never changes; document-indexes.test.ts checks that the two agree.
 */
export const itemsLeftOutOfDocIndex = `
DROP INDEX resources_doc_idx;
CREATE INDEX resources_doc_idx ON resources USING gin (doc jsonb_path_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 64)
  WHERE type_id NOT IN ('cart', 'order', 'quote-request', 'quote', 'shopping-list');
CREATE INDEX resources_doc_without_items_idx ON resources USING gin ((doc - '{lineItems,customLineItems}'::text[]) jsonb_path_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 64)
  WHERE type_id IN ('cart', 'order', 'quote-request', 'quote', 'shopping-list');
`;
