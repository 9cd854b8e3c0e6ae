/**
 * Senders claim due deliveries subscription by subscription (a share of each batch per subscription
 * with due work), so that one subscription's backlog — a bulk import, a destination back after an
 * outage — no longer holds every other subscription's deliveries behind it, as claiming the
 * oldest due first across all subscriptions did. The claim finds the subscriptions with pending
 * deliveries by skipping through this index and takes each one's oldest due from it; the global
 * due index has no reader left and goes (the index count, a cost on every insert, lease and
 * delete, stays the same).
 */
export const fairClaims = `
CREATE INDEX deliveries_subscription_due_idx ON deliveries (project_key, subscription_id, due_at, id);
DROP INDEX deliveries_due_idx;
`;
