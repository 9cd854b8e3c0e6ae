export type { Database, Queryable, QueryOptions, QueryResult, DatabaseDriver } from './database/types.js';
export { sqlState, UNIQUE_VIOLATION } from './database/types.js';
export { openDatabase, parseDatabaseUrl, DEFAULT_DATABASE_URL, type DatabaseLocation } from './database/open.js';
export { describeDatabaseUrl, DatabaseUnavailableError } from './database/target.js';
export { DataDirectoryInUseError } from './database/data-directory-lock.js';
export { runMigrations, MIGRATIONS } from './migrations/run.js';
export { DocumentStore } from './documents/document-store.js';
export { runPagedQuery, type QueryRequest } from './documents/paged-query.js';
export {
  documentOfType,
  holdsItems,
  holdsItemsSql,
  holdsNoItemsSql,
  indexConditionSql,
  jsonpathMayReadItems,
  testedDocumentSql,
  withoutItemsSql,
} from './documents/document-indexes.js';
export { TurnBatches } from './documents/turn-batches.js';
export type { WriteContext, WriteRequest, Locator, ServerFields, UpdateResult, UpdateOptions, TransactionReader, DeleteOptions } from './documents/types.js';
export { containerKey, CUSTOM_OBJECT_TYPE_ID, lookupKey, userProvidedIdentifiers } from './documents/identifiers.js';
export type { UniqueValue, UniqueValuesOf } from './documents/unique-values.js';
export type { SearchTerm, SearchTermsDeclaration } from './documents/search-terms.js';
export { OUTBOX_CHANNEL, type OutboxCommits } from './outbox/commit-bell.js';
export { appendEvents, eventInserts, prepareEvents, type EventParams, type WriteEvents } from './outbox/append.js';
export { ProjectStore, newProject, type Project } from './projects/project-store.js';
export * from './query/index.js';
export * from './expand/index.js';
