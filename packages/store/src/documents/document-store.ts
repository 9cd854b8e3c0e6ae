import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  concurrentModification,
  duplicateField,
  resourceNotFound,
  systemClock,
  type BaseResource,
  type ChangeDeliveryPayload,
  type Clock,
  type MessagePayload,
} from '@herald/model';
import { sqlState, UNIQUE_VIOLATION, type Database, type Queryable, type QueryOptions } from '../database/types.js';
import { appendEvents, eventInserts, prepareEvents } from '../outbox/append.js';
import { CreateBatcher } from './create-batcher.js';
import { UpdateBatcher, type PreparedUpdate } from './update-batcher.js';
import { runPagedQuery, typeScope, type QueryRequest } from './paged-query.js';
import { columnOfKeyInDocument } from '../query/columns.js';
import type { PagedQueryResponse } from '../query/types.js';
import { ByIdBatcher } from '../reads/by-id-batcher.js';
import type { DeleteOptions, Locator, ServerFields, TransactionReader, UpdateOptions, UpdateResult, WriteContext } from './types.js';
import { CUSTOM_OBJECT_TYPE_ID, lookupKey, userProvidedIdentifiers } from './identifiers.js';
import {
  claimChange,
  claimParams,
  claimsOf,
  claimStatements,
  isClaimViolation,
  isEmptyChange,
  RELEASE_ALL_SQL,
  valueHeldByOther,
  type ClaimChange,
  type UniqueValue,
  type UniqueValueDeclarations,
  type UniqueValuesOf,
} from './unique-values.js';
import {
  deriveAllTerms,
  REMOVE_TERMS_SQL,
  SearchTermRegistry,
  termParams,
  termStatements,
  type SearchTerm,
  type SearchTermsDeclaration,
} from './search-terms.js';

/** The repository's statements have fixed texts (the column of a locator is one of two). */
const PREPARED: QueryOptions = { prepare: true };
/** The statements that write a document with its messages and outbox rows. */
const WRITES_EVENTS: QueryOptions = { prepare: true, appendsOutbox: true };

// Statement texts are built once: the driver finds a prepared statement by its text.
const EVENT_PARAMS = { projectKey: 1, typeId: 2, now: 3, stored: 4, outbox: 5 } as const;

const createSql = (claiming: boolean, indexing: boolean): string => `WITH created AS (
    INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, message_seq, doc)
    VALUES ($1, $2, $6, $7, 1, $3, $3, $8, $9) RETURNING 1),
  ${eventInserts(EVENT_PARAMS)}${claiming ? `,\n  ${claimStatements(6, 10)}` : ''}${indexing ? `,\n  ${termStatements(6, claiming ? 14 : 10, false)}` : ''}
  SELECT 1`;
/**
 * By [claiming][indexing]: for types with unique values, their claims in the same statement
 * (unique-values.ts); for types with search terms, their rows (search-terms.ts).
 */
const CREATE_SQL = [
  [createSql(false, false), createSql(false, true)],
  [createSql(true, false), createSql(true, true)],
] as const;

/**
 * The condition that finds one resource by its id or key, for every statement that addresses one
 * resource. It compares under COLLATE "C", and only the lookup indexes of migration 005 are built
 * that way, so the planner cannot pick an index that reads the whole project and type instead,
 * with or without statistics (see 005-lookup-indexes.ts).
 */
const locate = (column: 'id' | 'key', value = '$3'): string => `project_key COLLATE "C" = $1 AND type_id COLLATE "C" = $2 AND ${column} COLLATE "C" = ${value}`;

const updateSql = (ifUnchanged: boolean, claiming: boolean, indexing: boolean): string => {
  const claimsParam = ifUnchanged ? 13 : 11;
  const termsParam = claiming ? claimsParam + 4 : claimsParam;
  return `WITH updated AS (
    UPDATE resources SET key = $7, version = $8, last_modified_at = $3, message_seq = message_seq + $9, doc = $10
    WHERE ${locate('id', '$6')}${ifUnchanged ? ' AND version = $11 AND xmin = $12::xid' : ''}
    RETURNING 1),
  ${eventInserts(EVENT_PARAMS, 'updated')}${claiming ? `,\n  ${claimStatements(6, claimsParam, 'updated')}` : ''}${indexing ? `,\n  ${termStatements(6, termsParam, true, 'updated')}` : ''}
  SELECT count(*)::int AS written FROM updated`;
};
/** By [ifUnchanged][claiming][indexing]: eight fixed texts. */
const UPDATE_SQL = [false, true].map((ifUnchanged) =>
  [false, true].map((claiming) => [false, true].map((indexing) => updateSql(ifUnchanged, claiming, indexing))),
);

/** A statement per locator column (`id` or `key`). */
const byLocator = (sql: (column: 'id' | 'key') => string): Record<'id' | 'key', string> => ({ id: sql('id'), key: sql('key') });
const READ_SQL = byLocator((column) => `SELECT doc FROM resources WHERE ${locate(column)}`);
const READ_WITH_SEQUENCE_SQL = byLocator((column) => `SELECT doc, message_seq, xmin::text AS row_version FROM resources WHERE ${locate(column)}`);
const LOCK_SQL = byLocator((column) => `SELECT doc, message_seq FROM resources WHERE ${locate(column)} FOR UPDATE`);
// One probe of the unique index per id. With `id = ANY($3)` PostgreSQL 15 may keep the ids in a
// filter and read the whole project and type, which without statistics looks like one row; a
// LATERAL subquery with LIMIT is planned on its own, per id, and has only the probe to choose.
const READ_MANY_SQL = `SELECT r.doc FROM unnest($3::text[]) AS wanted(id)
  CROSS JOIN LATERAL (SELECT doc FROM resources WHERE ${locate('id', 'wanted.id')} LIMIT 1) r`;
/** The rows optimistic updates start from, for many ids at once (as READ_MANY_SQL, one probe per id). */
const READ_MANY_WITH_SEQUENCE_SQL = `SELECT r.doc, r.message_seq, r.xmin::text AS row_version FROM unnest($3::text[]) AS wanted(id)
  CROSS JOIN LATERAL (SELECT doc, message_seq, xmin FROM resources WHERE ${locate('id', 'wanted.id')} LIMIT 1) r`;
const DELETE_SQL = `DELETE FROM resources WHERE ${locate('id')}`;

interface LockedRow<D> {
  doc: D;
  message_seq: number;
}

interface ReadRow<D> extends LockedRow<D> {
  /** The transaction that wrote this row version: any later write or re-creation changes it. */
  row_version: string;
}

/**
 * The generic versioned document repository. Every write is atomic with the change notification
 * (and the service's messages) it appends to the outbox, so nothing that was accepted can miss its
 * subscribers: one statement that writes the document and its events (create, optimistic update),
 * or one transaction (locked update, delete).
 */
export class DocumentStore {
  constructor(
    readonly db: Database,
    private readonly clock: Clock = systemClock,
    /** Shared with every store `within` derives: a declaration holds for all writes of its type. */
    private readonly uniqueValues: UniqueValueDeclarations = new Map(),
    private readonly searchTerms: SearchTermRegistry = new SearchTermRegistry(),
  ) {
    this.creates = new CreateBatcher(db);
    this.updates = new UpdateBatcher(db);
  }

  /** Concurrent creates share a statement (create-batcher.ts); never inside a caller's transaction. */
  private creates: CreateBatcher | undefined;
  /** Concurrent optimistic updates share a statement (update-batcher.ts); never inside a caller's transaction. */
  private updates: UpdateBatcher | undefined;

  /** Whether this store writes in a caller's transaction (`within`), where nothing is batched. */
  private get inCallersTransaction(): boolean {
    return this.creates === undefined;
  }
  /** The reads optimistic updates by id start from share a statement, as GETs by id do (never a cache). */
  private readonly rowsById = new ByIdBatcher<ReadRow<BaseResource>>((projectKey, typeId, ids) => this.readManyWithSequence(projectKey, typeId, ids));

  private async readManyWithSequence(projectKey: string, typeId: string, ids: readonly string[]): Promise<Map<string, ReadRow<BaseResource>>> {
    const result = await this.db.query<ReadRow<BaseResource>>(READ_MANY_WITH_SEQUENCE_SQL, [projectKey, typeId, [...new Set(ids)]], PREPARED);
    return new Map(result.rows.map((row) => [row.doc.id, row]));
  }

  /** The row an optimistic update starts from: by id in a shared statement, unless inside a caller's transaction. */
  private readForUpdate<D extends BaseResource>(projectKey: string, typeId: string, locator: Locator): Promise<ReadRow<D> | undefined> {
    if (this.updates !== undefined && 'id' in locator) return this.rowsById.read(projectKey, typeId, locator.id) as Promise<ReadRow<D> | undefined>;
    return readOneWithSequence<D>(this.db, projectKey, typeId, locator);
  }

  /**
   * Declares the search terms of the documents of `typeId` (search-terms.ts): every later create,
   * update and delete of the type replaces the document's rows in `search_terms` in the write's own
   * statement or transaction. Declare before the first write of the type.
   */
  declareSearchTerms<D extends BaseResource>(typeId: string, declaration: SearchTermsDeclaration<D>): void {
    this.searchTerms.declared.set(typeId, declaration as unknown as SearchTermsDeclaration);
  }

  /**
   * Makes the search terms of every document of the type in the project present: documents stored
   * before the declaration (or under another version) get theirs derived, once (migration 015).
   */
  async ensureSearchTerms(projectKey: string, typeId: string): Promise<void> {
    const declaration = this.searchTerms.declared.get(typeId);
    if (declaration === undefined) throw new Error(`No search terms are declared for '${typeId}'.`);
    const marker = `${projectKey}\u0000${typeId}\u0000${declaration.version}`;
    if (this.searchTerms.complete.has(marker)) return;
    const built = await this.db.query<{ version: string }>('SELECT version FROM search_term_builds WHERE project_key = $1 AND type_id = $2', [
      projectKey,
      typeId,
    ]);
    if (built.rows[0]?.version !== declaration.version) await this.db.transaction((tx) => deriveAllTerms(tx, projectKey, typeId, declaration));
    this.searchTerms.complete.add(marker);
  }

  private termsOf(typeId: string, doc: BaseResource): readonly SearchTerm[] | undefined {
    return this.searchTerms.declared.get(typeId)?.termsOf(doc);
  }

  /** The new rows of an update, or undefined when its type declares none or they stay as they are. */
  private termChangeOf(typeId: string, current: BaseResource, next: BaseResource): readonly SearchTerm[] | undefined {
    const after = this.termsOf(typeId, next);
    if (after === undefined) return undefined;
    return isDeepStrictEqual(this.termsOf(typeId, current), after) ? undefined : after;
  }

  /**
   * Declares the project-wide unique values of the documents of `typeId` (e.g. a product's slugs
   * and SKUs): every later create, update and delete of the type claims and releases them in the
   * write's own statement or transaction, and a value another document of the type holds is a
   * 400 DuplicateField with that field and value. Declare before the first write of the type.
   */
  declareUniqueValues<D extends BaseResource>(typeId: string, valuesOf: UniqueValuesOf<D>): void {
    this.uniqueValues.set(typeId, valuesOf as UniqueValuesOf);
  }

  /** The declared unique values of `doc`, or undefined when its type declares none. */
  private uniqueValuesOf(typeId: string, doc: BaseResource): readonly UniqueValue[] | undefined {
    return this.uniqueValues.get(typeId)?.(doc);
  }

  /**
   * This store running every statement on `tx`, a transaction the caller holds: its writes (and
   * their outbox rows) commit or roll back with the caller's other statements.
   */
  within(tx: Queryable): DocumentStore {
    const joined: Database = {
      driver: this.db.driver,
      query: (sql, params, options) => tx.query(sql, params, options),
      exec: (sql) => tx.exec(sql),
      transaction: (work) => work(tx),
      ...(this.db.outboxCommits === undefined ? {} : { outboxCommits: this.db.outboxCommits }),
      close: async () => {},
    };
    const store = new DocumentStore(joined, this.clock, this.uniqueValues, this.searchTerms);
    store.creates = undefined;
    store.updates = undefined;
    return store;
  }

  async create<D extends BaseResource>(
    ctx: WriteContext,
    typeId: string,
    fields: Omit<D, ServerFields> & { id?: string },
    messages?: (doc: D) => MessagePayload[],
  ): Promise<D> {
    const now = this.clock.now().toISOString();
    const { id = randomUUID(), ...rest } = fields as Omit<D, ServerFields> & { id?: string };
    const doc = {
      id,
      version: 1,
      ...rest,
      createdAt: now,
      lastModifiedAt: now,
      ...(ctx.initiator === undefined ? {} : { createdBy: ctx.initiator, lastModifiedBy: ctx.initiator }),
    } as unknown as D;
    const produced = messages?.(doc) ?? [];
    const events = prepareEvents(
      ctx,
      typeId,
      doc,
      0,
      produced,
      {
        notificationType: 'ResourceCreated',
        projectKey: ctx.projectKey,
        resource: { typeId, id: doc.id },
        ...userProvidedIdentifiers(doc),
        version: 1,
        modifiedAt: now,
      },
      now,
    );
    const unique = this.uniqueValuesOf(typeId, doc);
    const claims = unique === undefined ? undefined : claimsOf(unique);
    const terms = this.termsOf(typeId, doc);
    // The project's first create of the type (in this process) records that its documents' terms
    // are complete (deriving those stored without them), so that its first search does not derive
    // every document written since. Not within a caller's transaction: its rollback would leave the
    // process believing in a record that never committed.
    if (terms !== undefined && !this.inCallersTransaction) await this.ensureSearchTerms(ctx.projectKey, typeId);
    const params: unknown[] = [ctx.projectKey, typeId, now, events.storedJson, events.outboxJson, doc.id, lookupKey(typeId, doc), produced.length, doc];
    if (claims !== undefined) params.push(...claimParams(claims));
    if (terms !== undefined) params.push(...termParams(terms));
    // One statement (atomic on its own, one round trip): the document, its messages, its outbox
    // rows, the claims of its unique values and its search terms.
    const statement = CREATE_SQL[claims === undefined ? 0 : 1][terms === undefined ? 0 : 1];
    const alone = async () => {
      // In a caller's transaction a refused claim would abort it before the error names the value
      // another document holds (mapUniqueViolation reads it): a savepoint keeps it readable.
      if (this.inCallersTransaction && claims !== undefined) await underSavepoint(this.db, () => this.db.query(statement, params, WRITES_EVENTS));
      else await this.db.query(statement, params, WRITES_EVENTS);
    };
    try {
      // Claims and search terms have their own statements: only the plain creates share one.
      if (this.creates === undefined || claims !== undefined || terms !== undefined) await alone();
      else
        await this.creates.write({
          projectKey: ctx.projectKey,
          typeId,
          rowJson: createRow(doc, typeId, now, produced.length),
          storedJson: events.storedJson,
          outboxJson: events.outboxJson,
          alone,
        });
    } catch (error) {
      throw await this.mapUniqueViolation(error, ctx.projectKey, typeId, doc, claims?.claimed);
    }
    return doc;
  }

  /** Concurrent reads by id share one statement per project and type (issue 30; never a cache). */
  private readonly byId = new ByIdBatcher<BaseResource>((projectKey, typeId, ids) => this.getMany(projectKey, typeId, ids));

  async get<D extends BaseResource>(projectKey: string, typeId: string, locator: Locator): Promise<D | undefined> {
    if ('id' in locator) return (await this.byId.read(projectKey, typeId, locator.id)) as D | undefined;
    return readOne<D>(this.db, projectKey, typeId, locator);
  }

  /** Loads many documents of one type by id (reference expansion, batch validation). */
  async getMany<D extends BaseResource>(projectKey: string, typeId: string, ids: readonly string[]): Promise<Map<string, D>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.query<{ doc: D }>(READ_MANY_SQL, [projectKey, typeId, [...new Set(ids)]], PREPARED);
    return new Map(result.rows.map((row) => [row.doc.id, row.doc]));
  }

  /**
   * Applies `apply` to the current document; the version increases only when the document changed
   * (or messages were produced); a version mismatch is a 409. By default under a row lock, in a
   * transaction that `apply` may join (`reader.tx`). With `optimistic`, `apply` runs on the current
   * document read without a lock, and the write is conditioned on that version still being current:
   * a write committed in between answers 409 as the lock would have (two round trips instead of four).
   */
  async update<D extends BaseResource>(
    ctx: WriteContext,
    typeId: string,
    locator: Locator,
    expectedVersion: number,
    apply: (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>,
    options: UpdateOptions<D> = {},
  ): Promise<D> {
    if (options.optimistic === true) return this.updateOptimistically(ctx, typeId, locator, expectedVersion, apply, options.alongside, true);
    let attempted: D | undefined;
    let claims: ClaimChange | undefined;
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await lockOne<D>(tx, ctx.projectKey, typeId, locator);
        if (locked === undefined) throw notFound(typeId, locator);
        const current = locked.doc;
        if (current.version !== expectedVersion) throw concurrentModification(current.version, expectedVersion);
        const result = await apply(structuredClone(current), transactionReader(tx, ctx.projectKey));
        const next = this.nextVersion(ctx, current, result);
        if (next === undefined) return current;
        attempted = next;
        claims = this.claimChangeOf(typeId, current, next);
        const notify = options.changeNotification !== false;
        const terms = this.termChangeOf(typeId, current, next);
        await this.writeUpdate(tx, ctx, typeId, current, locked.message_seq, next, result.messages ?? [], undefined, { claims, terms }, notify);
        await options.alongside?.(tx, current, next);
        return next;
      });
    } catch (error) {
      throw await this.mapUniqueViolation(error, ctx.projectKey, typeId, attempted, claims?.claimed);
    }
  }

  private async updateOptimistically<D extends BaseResource>(
    ctx: WriteContext,
    typeId: string,
    locator: Locator,
    expectedVersion: number,
    apply: (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>,
    alongside: UpdateOptions<D>['alongside'],
    mayRetry: boolean,
  ): Promise<D> {
    const read = await this.readForUpdate<D>(ctx.projectKey, typeId, locator);
    if (read === undefined) throw notFound(typeId, locator);
    const current = read.doc;
    if (current.version !== expectedVersion) throw concurrentModification(current.version, expectedVersion);
    const result = await apply(structuredClone(current), readerOutsideTransaction(this.db, ctx.projectKey));
    const next = this.nextVersion(ctx, current, result);
    if (next === undefined) return current;
    const claims = this.claimChangeOf(typeId, current, next);
    const derived = { claims, terms: this.termChangeOf(typeId, current, next) };
    let written: boolean;
    try {
      written =
        alongside === undefined
          ? await this.writeUpdate(this.db, ctx, typeId, current, read.message_seq, next, result.messages ?? [], read.row_version, derived, true, this.updates)
          : await this.db.transaction(async (tx) => {
              const done = await this.writeUpdate(tx, ctx, typeId, current, read.message_seq, next, result.messages ?? [], read.row_version, derived);
              if (done) await alongside(tx, current, next);
              return done;
            });
    } catch (error) {
      throw await this.mapUniqueViolation(error, ctx.projectKey, typeId, next, claims?.claimed);
    }
    if (written) return next;
    // Another write committed after our read: what the row lock would have answered after waiting.
    const now = await readOne<D>(this.db, ctx.projectKey, typeId, { id: current.id });
    if (now === undefined) throw notFound(typeId, locator);
    // Deleted and created again with this id meanwhile, at the expected version: as if this request
    // came after that, once more from the start.
    if (now.version === expectedVersion && mayRetry) return this.updateOptimistically(ctx, typeId, locator, expectedVersion, apply, alongside, false);
    throw concurrentModification(now.version, expectedVersion);
  }

  /** The next version of `current` after `apply`, or undefined when nothing changed (no write). */
  private nextVersion<D extends BaseResource>(ctx: WriteContext, current: D, result: UpdateResult<D>): D | undefined {
    const produced = result.messages ?? [];
    if (produced.length === 0 && isDeepStrictEqual(stripServerFields(result.doc), stripServerFields(current))) return undefined;
    const now = this.clock.now().toISOString();
    return {
      ...result.doc,
      id: current.id,
      version: current.version + 1,
      createdAt: current.createdAt,
      lastModifiedAt: now,
      ...(current.createdBy === undefined ? {} : { createdBy: current.createdBy }),
      ...(ctx.initiator === undefined ? {} : { lastModifiedBy: ctx.initiator }),
    } as D;
  }

  /** The claims an update changes, or undefined when its type declares none or they stay as they are. */
  private claimChangeOf(typeId: string, current: BaseResource, next: BaseResource): ClaimChange | undefined {
    const before = this.uniqueValuesOf(typeId, current);
    const after = this.uniqueValuesOf(typeId, next);
    if (before === undefined || after === undefined) return undefined;
    const change = claimChange(before, after);
    return isEmptyChange(change) ? undefined : change;
  }

  /**
   * The document's new version, its messages, its change notification, its changed claims and its
   * changed search terms in one statement. With `rowVersion`, only if the row is still the one that was read (its `xmin`:
   * no write since, and not a resource re-created with the same id): answers whether it was written.
   */
  private async writeUpdate<D extends BaseResource>(
    target: Queryable,
    ctx: WriteContext,
    typeId: string,
    current: D,
    lastSequence: number,
    next: D,
    produced: readonly MessagePayload[],
    rowVersion: string | undefined,
    { claims, terms }: { claims: ClaimChange | undefined; terms: readonly SearchTerm[] | undefined },
    notify = true,
    /** Shares a statement with concurrent updates of the type (conditional ones without claims or terms only). */
    batcher?: UpdateBatcher,
  ): Promise<boolean> {
    const now = next.lastModifiedAt;
    const change: ChangeDeliveryPayload = {
      notificationType: 'ResourceUpdated',
      projectKey: ctx.projectKey,
      resource: { typeId, id: current.id },
      ...userProvidedIdentifiers(next),
      version: next.version,
      oldVersion: current.version,
      modifiedAt: now,
    };
    const events = prepareEvents(ctx, typeId, next, lastSequence, produced, notify ? change : undefined, now);
    const params: unknown[] = [
      ctx.projectKey,
      typeId,
      now,
      events.storedJson,
      events.outboxJson,
      current.id,
      lookupKey(typeId, next),
      next.version,
      produced.length,
      next,
    ];
    if (rowVersion !== undefined) params.push(current.version, rowVersion);
    if (claims !== undefined) params.push(...claimParams(claims));
    if (terms !== undefined) params.push(...termParams(terms));
    const sql = UPDATE_SQL[rowVersion === undefined ? 0 : 1]?.[claims === undefined ? 0 : 1]?.[terms === undefined ? 0 : 1] ?? '';
    const alone = async () => ((await target.query<{ written: number }>(sql, params, WRITES_EVENTS)).rows[0]?.written ?? 0) > 0;
    if (batcher === undefined || rowVersion === undefined || claims !== undefined || terms !== undefined) return alone();
    const row: PreparedUpdate = {
      projectKey: ctx.projectKey,
      typeId,
      id: next.id,
      rowJson: updateRow(next, typeId, current.version, rowVersion, produced.length),
      events,
      alone,
    };
    return batcher.write(row);
  }

  /** Deletes with the expected version; returns the deleted document. */
  async delete<D extends BaseResource>(
    ctx: WriteContext,
    typeId: string,
    locator: Locator,
    expectedVersion: number,
    options: DeleteOptions<D> = {},
  ): Promise<D> {
    return this.db.transaction(async (tx) => {
      const locked = await lockOne<D>(tx, ctx.projectKey, typeId, locator);
      if (locked === undefined) throw notFound(typeId, locator);
      const current = locked.doc;
      if (current.version !== expectedVersion) throw concurrentModification(current.version, expectedVersion);
      const now = this.clock.now().toISOString();
      if (options.dataErasure === true) {
        // §4.4.9: data erasure removes personal data, including what the Messages API keeps.
        await tx.query('DELETE FROM messages WHERE project_key = $1 AND resource_type_id = $2 AND resource_id = $3', [ctx.projectKey, typeId, current.id]);
        // …and the copies of its events in dropped_deliveries (kept 14 days with their payload,
        // e.g. a CustomerCreated with the e-mail): else they stay listable and a replay after the
        // erasure sends them again. Pending deliveries are left alone: they were emitted before
        // the erasure, and the ResourceDeleted with dataErasure below tells the subscribers. No
        // index on the payload: the table is small (drops of 14 days) and scanned per project.
        await tx.query(
          `DELETE FROM dropped_deliveries WHERE project_key = $1
             AND payload -> 'resource' ->> 'typeId' = $2 AND payload -> 'resource' ->> 'id' = $3`,
          [ctx.projectKey, typeId, current.id],
        );
      }
      const produced = options.messages?.(current) ?? [];
      const erase = options.dataErasure === true ? { ...ctx, storeMessages: false } : ctx;
      const change: ChangeDeliveryPayload = {
        notificationType: 'ResourceDeleted',
        projectKey: ctx.projectKey,
        resource: { typeId, id: current.id },
        ...userProvidedIdentifiers(current),
        version: current.version,
        modifiedAt: now,
        ...(options.dataErasure === true ? { dataErasure: true } : {}),
      };
      await tx.query(DELETE_SQL, [ctx.projectKey, typeId, current.id]);
      // Frees every value the document held (its type's declared unique values).
      if (this.uniqueValues.has(typeId)) await tx.query(RELEASE_ALL_SQL, [ctx.projectKey, typeId, current.id], PREPARED);
      if (this.searchTerms.declared.has(typeId)) await tx.query(REMOVE_TERMS_SQL, [ctx.projectKey, typeId, current.id], PREPARED);
      await appendEvents(tx, erase, typeId, current, locked.message_seq, produced, change, now);
      return current;
    });
  }

  /** Query with predicates, sorting and paging (§4.4). */
  async query<D extends BaseResource>(projectKey: string, typeId: string, request: QueryRequest): Promise<PagedQueryResponse<D>> {
    const columns = typeId === CUSTOM_OBJECT_TYPE_ID ? columnOfKeyInDocument : undefined;
    const { scope, documentOf } = typeScope(typeId);
    return runPagedQuery<D>(this.db, 'resources', scope, [projectKey, typeId], { ...request, columns, documentOf });
  }

  /**
   * A unique violation as the API answers it: 400 DuplicateField for the key, or for the unique
   * value another document holds (`claimed`: the values the failed write claimed).
   */
  private async mapUniqueViolation(
    error: unknown,
    projectKey: string,
    typeId: string,
    doc: BaseResource | undefined,
    claimed: readonly UniqueValue[] | undefined,
  ): Promise<unknown> {
    if (sqlState(error) !== UNIQUE_VIOLATION) return error;
    if (isClaimViolation(error) && doc !== undefined && claimed !== undefined && claimed.length > 0) {
      const held = await valueHeldByOther(this.db, projectKey, typeId, doc.id, claimed, error);
      if (held !== undefined) return duplicateField(held.field, held.duplicateValue ?? held.value);
    }
    return duplicateField('key', doc?.key);
  }
}

/** Runs `write` under a savepoint of the current transaction, rolled back to when it fails. */
async function underSavepoint(tx: Queryable, write: () => Promise<unknown>): Promise<void> {
  await tx.query('SAVEPOINT herald_write');
  try {
    await write();
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT herald_write');
    throw error;
  }
  await tx.query('RELEASE SAVEPOINT herald_write');
}

function locatorCondition(locator: Locator): { column: 'id' | 'key'; value: string } {
  return 'id' in locator ? { column: 'id', value: locator.id } : { column: 'key', value: locator.key };
}

async function readOne<D>(db: Queryable, projectKey: string, typeId: string, locator: Locator): Promise<D | undefined> {
  const { column, value } = locatorCondition(locator);
  const result = await db.query<{ doc: D }>(READ_SQL[column], [projectKey, typeId, value], PREPARED);
  return result.rows[0]?.doc;
}

async function readOneWithSequence<D>(db: Queryable, projectKey: string, typeId: string, locator: Locator): Promise<ReadRow<D> | undefined> {
  const { column, value } = locatorCondition(locator);
  const result = await db.query<ReadRow<D>>(READ_WITH_SEQUENCE_SQL[column], [projectKey, typeId, value], PREPARED);
  return result.rows[0];
}

async function lockOne<D>(tx: Queryable, projectKey: string, typeId: string, locator: Locator): Promise<LockedRow<D> | undefined> {
  const { column, value } = locatorCondition(locator);
  const result = await tx.query<LockedRow<D>>(LOCK_SQL[column], [projectKey, typeId, value], PREPARED);
  return result.rows[0];
}

/** An update's row as the batch statement reads it (update-batcher.ts). */
function updateRow(next: BaseResource, typeId: string, expected: number, rowVersion: string, added: number): string {
  const row = {
    id: next.id,
    key: lookupKey(typeId, next),
    version: next.version,
    expected,
    row_version: rowVersion,
    now: next.lastModifiedAt,
    added,
    doc: next,
  };
  return JSON.stringify(row);
}

/** A create's row as the batch statement reads it (create-batcher.ts). */
function createRow(doc: BaseResource, typeId: string, now: string, messageSeq: number): string {
  return JSON.stringify({ id: doc.id, key: lookupKey(typeId, doc), now, message_seq: messageSeq, doc });
}

function transactionReader(tx: Queryable, projectKey: string): TransactionReader {
  return {
    tx,
    get: <T extends BaseResource>(typeId: string, locator: Locator) => readOne<T>(tx, projectKey, typeId, locator),
  };
}

/** For optimistic updates: reads as in a transaction (each sees the latest commit), but no writes. */
function readerOutsideTransaction(db: Queryable, projectKey: string): TransactionReader {
  return {
    get: <T extends BaseResource>(typeId: string, locator: Locator) => readOne<T>(db, projectKey, typeId, locator),
    get tx(): Queryable {
      throw new Error('An optimistic update has no transaction to write in; update without { optimistic: true }');
    },
  };
}

function notFound(typeId: string, locator: Locator) {
  const what = 'id' in locator ? `id '${locator.id}'` : `key '${locator.key}'`;
  return resourceNotFound(`The Resource with ${what} was not found.`);
}

function stripServerFields(doc: BaseResource): Record<string, unknown> {
  const { version: _v, lastModifiedAt: _m, lastModifiedBy: _b, ...rest } = doc;
  return rest;
}
