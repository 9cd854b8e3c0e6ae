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
import { sqlState, UNIQUE_VIOLATION, type Database, type Queryable } from '../database/types.js';
import { appendChange, appendMessages } from '../outbox/append.js';
import { compileQuery, parsePaging, TOTAL_CAP } from '../query/index.js';
import type { PagedQueryResponse, QueryParameters } from '../query/types.js';
import type {
  DeleteOptions,
  Locator,
  ServerFields,
  TransactionReader,
  UpdateResult,
  WriteContext,
} from './types.js';
import { userProvidedIdentifiers } from './identifiers.js';

interface LockedRow<D> {
  doc: D;
  message_seq: number;
}

export interface QueryRequest extends QueryParameters {
  limit?: string | number;
  offset?: string | number;
  withTotal?: string | boolean;
}

/**
 * The generic versioned document repository. Every write runs in one transaction that also
 * appends the change notification (and the service's messages) to the outbox, so nothing that
 * was accepted can miss its subscribers.
 */
export class DocumentStore {
  constructor(
    readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

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
    try {
      await this.db.transaction(async (tx) => {
        const produced = messages?.(doc) ?? [];
        await tx.query(
          `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, message_seq, doc)
           VALUES ($1, $2, $3, $4, 1, $5, $5, $6, $7)`,
          [ctx.projectKey, typeId, doc.id, doc.key ?? null, now, produced.length, doc],
        );
        await appendMessages(tx, ctx, typeId, doc, 0, produced, now);
        await appendChange(tx, ctx.projectKey, typeId, {
          notificationType: 'ResourceCreated',
          projectKey: ctx.projectKey,
          resource: { typeId, id: doc.id },
          ...userProvidedIdentifiers(doc),
          version: 1,
          modifiedAt: now,
        });
      });
    } catch (error) {
      throw this.mapUniqueViolation(error, doc);
    }
    return doc;
  }

  async get<D extends BaseResource>(projectKey: string, typeId: string, locator: Locator): Promise<D | undefined> {
    return readOne<D>(this.db, projectKey, typeId, locator);
  }

  /** Loads many documents of one type by id (reference expansion, batch validation). */
  async getMany<D extends BaseResource>(projectKey: string, typeId: string, ids: readonly string[]): Promise<Map<string, D>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.query<{ doc: D }>(
      'SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND id = ANY($3::text[])',
      [projectKey, typeId, [...new Set(ids)]],
    );
    return new Map(result.rows.map((row) => [row.doc.id, row.doc]));
  }

  /**
   * Applies `apply` to the current document under a row lock. The version increases only when
   * the document changed (or messages were produced); a version mismatch is a 409.
   */
  async update<D extends BaseResource>(
    ctx: WriteContext,
    typeId: string,
    locator: Locator,
    expectedVersion: number,
    apply: (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>,
  ): Promise<D> {
    let attempted: D | undefined;
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await lockOne<D>(tx, ctx.projectKey, typeId, locator);
        if (locked === undefined) throw notFound(typeId, locator);
        const current = locked.doc;
        if (current.version !== expectedVersion) throw concurrentModification(current.version, expectedVersion);
        const result = await apply(structuredClone(current), transactionReader(tx, ctx.projectKey));
        const produced = result.messages ?? [];
        if (produced.length === 0 && isDeepStrictEqual(stripServerFields(result.doc), stripServerFields(current))) {
          return current;
        }
        const now = this.clock.now().toISOString();
        const next = {
          ...result.doc,
          id: current.id,
          version: current.version + 1,
          createdAt: current.createdAt,
          lastModifiedAt: now,
          ...(current.createdBy === undefined ? {} : { createdBy: current.createdBy }),
          ...(ctx.initiator === undefined ? {} : { lastModifiedBy: ctx.initiator }),
        } as D;
        attempted = next;
        await tx.query(
          `UPDATE resources SET key = $4, version = $5, last_modified_at = $6, message_seq = message_seq + $7, doc = $8
           WHERE project_key = $1 AND type_id = $2 AND id = $3`,
          [ctx.projectKey, typeId, current.id, next.key ?? null, next.version, now, produced.length, next],
        );
        await appendMessages(tx, ctx, typeId, next, locked.message_seq, produced, now);
        await appendChange(tx, ctx.projectKey, typeId, {
          notificationType: 'ResourceUpdated',
          projectKey: ctx.projectKey,
          resource: { typeId, id: current.id },
          ...userProvidedIdentifiers(next),
          version: next.version,
          oldVersion: current.version,
          modifiedAt: now,
        });
        return next;
      });
    } catch (error) {
      throw this.mapUniqueViolation(error, attempted);
    }
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
      await tx.query('DELETE FROM resources WHERE project_key = $1 AND type_id = $2 AND id = $3', [
        ctx.projectKey,
        typeId,
        current.id,
      ]);
      if (options.dataErasure === true) {
        // §4.4.9: data erasure removes personal data, including what the Messages API keeps.
        await tx.query('DELETE FROM messages WHERE project_key = $1 AND resource_type_id = $2 AND resource_id = $3', [
          ctx.projectKey,
          typeId,
          current.id,
        ]);
      }
      const produced = options.messages?.(current) ?? [];
      const erase = options.dataErasure === true ? { ...ctx, storeMessages: false } : ctx;
      await appendMessages(tx, erase, typeId, current, locked.message_seq, produced, now);
      const change: ChangeDeliveryPayload = {
        notificationType: 'ResourceDeleted',
        projectKey: ctx.projectKey,
        resource: { typeId, id: current.id },
        ...userProvidedIdentifiers(current),
        version: current.version,
        modifiedAt: now,
        ...(options.dataErasure === true ? { dataErasure: true } : {}),
      };
      await appendChange(tx, ctx.projectKey, typeId, change);
      return current;
    });
  }

  /** Query with predicates, sorting and paging (§4.4). */
  async query<D extends BaseResource>(
    projectKey: string,
    typeId: string,
    request: QueryRequest,
  ): Promise<PagedQueryResponse<D>> {
    return runPagedQuery<D>(this.db, 'resources', ['r.project_key = $1', 'r.type_id = $2'], [projectKey, typeId], request);
  }

  private mapUniqueViolation(error: unknown, doc: BaseResource | undefined): unknown {
    if (sqlState(error) === UNIQUE_VIOLATION) return duplicateField('key', doc?.key);
    return error;
  }
}

/** Shared by the resource and the Messages API queries: scope conditions + compiled predicates. */
export async function runPagedQuery<D>(
  db: Queryable,
  table: 'resources' | 'messages',
  scope: readonly string[],
  scopeParams: readonly unknown[],
  request: QueryRequest,
): Promise<PagedQueryResponse<D>> {
  const paging = parsePaging({ limit: request.limit, offset: request.offset, withTotal: request.withTotal });
  const compiled = compileQuery(
    { where: request.where ?? [], vars: request.vars ?? {}, sort: request.sort ?? [] },
    scopeParams.length + 1,
  );
  const where = `${scope.join(' AND ')} AND (${compiled.whereSql})`;
  const params = [...scopeParams, ...compiled.params];
  const limitParam = params.length + 1;
  const page = await db.query<{ doc: D }>(
    `SELECT r.doc FROM ${table} r WHERE ${where} ORDER BY ${compiled.orderBySql} LIMIT $${limitParam} OFFSET $${limitParam + 1}`,
    [...params, paging.limit, paging.offset],
  );
  const response: PagedQueryResponse<D> = {
    limit: paging.limit,
    offset: paging.offset,
    count: page.rows.length,
    results: page.rows.map((row) => row.doc),
  };
  if (paging.withTotal) {
    // §4.4.4: with a filtering predicate the total is an estimate capped at the maximum offset.
    // The count binds only the scope and predicate values: the sort's would be unused parameters.
    const countParams = params.slice(0, scopeParams.length + compiled.whereParamCount);
    const counted = compiled.filtered
      ? await db.query<{ total: number }>(
          `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${table} r WHERE ${where} LIMIT ${TOTAL_CAP}) capped`,
          countParams,
        )
      : await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} r WHERE ${where}`, countParams);
    response.total = counted.rows[0]?.total ?? 0;
  }
  return response;
}

function locatorCondition(locator: Locator): { column: 'id' | 'key'; value: string } {
  return 'id' in locator ? { column: 'id', value: locator.id } : { column: 'key', value: locator.key };
}

async function readOne<D>(db: Queryable, projectKey: string, typeId: string, locator: Locator): Promise<D | undefined> {
  const { column, value } = locatorCondition(locator);
  const result = await db.query<{ doc: D }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND ${column} = $3`,
    [projectKey, typeId, value],
  );
  return result.rows[0]?.doc;
}

async function lockOne<D>(tx: Queryable, projectKey: string, typeId: string, locator: Locator): Promise<LockedRow<D> | undefined> {
  const { column, value } = locatorCondition(locator);
  const result = await tx.query<LockedRow<D>>(
    `SELECT doc, message_seq FROM resources WHERE project_key = $1 AND type_id = $2 AND ${column} = $3 FOR UPDATE`,
    [projectKey, typeId, value],
  );
  return result.rows[0];
}

function transactionReader(tx: Queryable, projectKey: string): TransactionReader {
  return {
    tx,
    get: <T extends BaseResource>(typeId: string, locator: Locator) => readOne<T>(tx, projectKey, typeId, locator),
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
