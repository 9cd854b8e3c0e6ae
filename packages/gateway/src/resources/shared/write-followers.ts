import type { BaseResource, MessagePayload } from '@herald/model';
import type {
  DeleteOptions,
  DocumentStore,
  Locator,
  Queryable,
  ServerFields,
  TransactionReader,
  UpdateOptions,
  UpdateResult,
  WriteContext,
} from '@herald/store';

/** A write's transaction as its followers see it. */
export interface WriteInTransaction {
  ctx: WriteContext;
  tx: Queryable;
  /** The document store on `tx`: what it reads and writes commits or rolls back with the write. */
  joined: DocumentStore;
}

/** The fields a create is asked for. */
export type CreateFields<R extends BaseResource> = Omit<R, ServerFields> & { id?: string };

/** What a create writes after `beforeCreate`: its fields, and messages besides the caller's. */
export interface PreparedCreate<R extends BaseResource> {
  fields: CreateFields<R>;
  messages?: readonly MessagePayload[];
}

/** The store's update `apply` (applies the actions to the current document). */
export type Apply<R extends BaseResource> = (current: R, reader: TransactionReader) => Promise<UpdateResult<R>> | UpdateResult<R>;

/** What must commit with a write of one resource type; every step is optional. */
export interface WriteFollowers<R extends BaseResource> {
  /**
   * Taken first in the transaction of every create, update and delete, so that the type's writes
   * of a project follow one another (e.g. the category tree); updates then take the row lock too.
   */
  lock?(tx: Queryable, projectKey: string): Promise<void>;
  /** Updates take the row lock even when the caller asked for an optimistic one: a follower reads in the transaction. */
  lockedUpdates?: boolean;
  /** In the create's transaction before the insert: checks, and the fields to create. */
  beforeCreate?(write: WriteInTransaction, fields: CreateFields<R>): Promise<PreparedCreate<R>>;
  afterCreate?(write: WriteInTransaction, created: R): Promise<void>;
  /** The update's `apply` with what follows from its result (it runs where `apply` runs). */
  followApply?(ctx: WriteContext, apply: Apply<R>): Apply<R>;
  /** In the update's transaction after the new version is written (after the caller's own `alongside`); not when nothing changed. */
  alongsideUpdate?(write: WriteInTransaction, previous: R, next: R): Promise<void>;
  afterDelete?(write: WriteInTransaction, deleted: R): Promise<void>;
}

function writeIn(documents: DocumentStore, ctx: WriteContext, tx: Queryable): WriteInTransaction {
  return { ctx, tx, joined: documents.within(tx) };
}

/** The caller's update options, locked when the followers need it, with `alongsideUpdate` after the caller's `alongside`. */
function followedOptions<R extends BaseResource>(
  documents: DocumentStore,
  followers: WriteFollowers<R>,
  ctx: WriteContext,
  options: UpdateOptions<R>,
): UpdateOptions<R> {
  const { optimistic: _lockInstead, ...locked } = options;
  const asked = followers.lock !== undefined || followers.lockedUpdates === true ? locked : options;
  const follow = followers.alongsideUpdate;
  if (follow === undefined) return asked;
  return {
    ...asked,
    alongside: async (tx, previous, next) => {
      await options.alongside?.(tx, previous, next);
      await follow(writeIn(documents, ctx, tx), previous, next);
    },
  };
}

function withMessages<D>(messages: ((doc: D) => MessagePayload[]) | undefined, more: readonly MessagePayload[] | undefined) {
  if (more === undefined) return messages;
  return (doc: D) => [...(messages?.(doc) ?? []), ...more];
}

/**
 * The document store a resource's routes write through: `documents`, with each create, update and
 * delete of a `R` committing in one transaction with what follows from it (`followers`). Reads
 * and every other method are the store's own.
 */
export function withWriteFollowers<R extends BaseResource>(documents: DocumentStore, followers: WriteFollowers<R>): DocumentStore {
  // The store's methods are generic in the document type; the followers know theirs (R).
  const asR = <D>(doc: D) => doc as unknown as R;
  const overrides: Pick<DocumentStore, 'create' | 'update' | 'delete'> = {
    create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ) {
      return documents.db.transaction(async (tx) => {
        const write = writeIn(documents, ctx, tx);
        await followers.lock?.(tx, ctx.projectKey);
        const asked = fields as unknown as CreateFields<R>;
        const prepared = followers.beforeCreate === undefined ? { fields: asked } : await followers.beforeCreate(write, asked);
        const created = await write.joined.create<D>(
          ctx,
          typeId,
          prepared.fields as unknown as Omit<D, ServerFields>,
          withMessages(messages, prepared.messages),
        );
        await followers.afterCreate?.(write, asR(created));
        return created;
      });
    },

    // The parameters' types are the store's own (DocumentStore.update), as the object's type says.
    update(ctx, typeId, locator, expectedVersion, apply, options = {}) {
      const followedApply = (followers.followApply?.(ctx, apply as unknown as Apply<R>) ?? apply) as typeof apply;
      const followed = followedOptions(documents, followers, ctx, options as unknown as UpdateOptions<R>) as unknown as typeof options;
      const lock = followers.lock;
      if (lock === undefined) return documents.update(ctx, typeId, locator, expectedVersion, followedApply, followed);
      return documents.db.transaction(async (tx) => {
        await lock(tx, ctx.projectKey);
        return documents.within(tx).update(ctx, typeId, locator, expectedVersion, followedApply, followed);
      });
    },

    delete<D extends BaseResource>(ctx: WriteContext, typeId: string, locator: Locator, expectedVersion: number, options?: DeleteOptions<D>): Promise<D> {
      if (followers.lock === undefined && followers.afterDelete === undefined) return documents.delete<D>(ctx, typeId, locator, expectedVersion, options);
      return documents.db.transaction(async (tx) => {
        const write = writeIn(documents, ctx, tx);
        await followers.lock?.(tx, ctx.projectKey);
        const deleted = await write.joined.delete<D>(ctx, typeId, locator, expectedVersion, options);
        await followers.afterDelete?.(write, asR(deleted));
        return deleted;
      });
    },
  };
  return Object.assign(Object.create(documents) as DocumentStore, overrides);
}
