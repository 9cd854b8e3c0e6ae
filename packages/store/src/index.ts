export type { Database, Queryable, QueryOptions, QueryResult, DatabaseDriver } from './database/types.js';
export { sqlState, UNIQUE_VIOLATION } from './database/types.js';
export { openDatabase, parseDatabaseUrl, DEFAULT_DATABASE_URL, type DatabaseLocation } from './database/open.js';
export { describeDatabaseUrl, DatabaseUnavailableError } from './database/target.js';
export { DataDirectoryInUseError } from './database/data-directory-lock.js';
export { runMigrations, MIGRATIONS } from './migrations/run.js';
export { DocumentStore, runPagedQuery, type QueryRequest } from './documents/document-store.js';
export type {
  WriteContext,
  Locator,
  ServerFields,
  UpdateResult,
  UpdateOptions,
  TransactionReader,
  DeleteOptions,
} from './documents/types.js';
export { containerKey, lookupKey, userProvidedIdentifiers } from './documents/identifiers.js';
export { appendEvents, eventInserts, prepareEvents, type EventParams, type WriteEvents } from './outbox/append.js';
export { ProjectStore, newProject, type Project } from './projects/project-store.js';
export * from './query/index.js';
export * from './expand/index.js';
