import type { BaseResource, Initiator, MessagePayload } from '@herald/model';
import type { Queryable } from '../database/types.js';

/** Who writes, and where: every write is scoped to one project. */
export interface WriteContext {
  projectKey: string;
  initiator?: Initiator;
  /**
   * Whether messages are kept for the Messages API (project setting, §6.2). Messages are always
   * appended to the outbox: subscriptions receive them even when the Messages API is off.
   */
  storeMessages?: boolean;
  /**
   * The request behind the write, as the layer above the store knows it. The store never reads it:
   * it only carries it to the write hooks that wrap a DocumentStore (the gateway's API Extensions
   * forward its correlation id and apply their actions with its token). Absent outside a request.
   */
  request?: WriteRequest;
}

/**
 * See `WriteContext.request`. The layer above adds what its hooks need by declaration merging
 * (the gateway adds the project and the token) rather than the store naming gateway types.
 */
export interface WriteRequest {
  correlationId: string;
}

/** Addresses one resource by id or by key. */
export type Locator = { id: string } | { key: string };

/** Fields the store owns; services never set them. */
export type ServerFields = 'id' | 'version' | 'createdAt' | 'lastModifiedAt' | 'createdBy' | 'lastModifiedBy';

/** What an update produces: the new document (server fields are overwritten) and its messages. */
export interface UpdateResult<D extends BaseResource> {
  doc: D;
  messages?: MessagePayload[];
}

/** Reads inside the write's transaction, for validation that must see a consistent state. */
export interface TransactionReader {
  get<T extends BaseResource>(typeId: string, locator: Locator): Promise<T | undefined>;
  /** The raw connection of the transaction, for services that keep their own tables. */
  readonly tx: Queryable;
}

export interface UpdateOptions<D extends BaseResource = BaseResource> {
  /**
   * Run `apply` without a transaction and row lock, and write only if the document is still the
   * version `apply` saw (else 409, as under the lock). For updates whose `apply` only reads
   * (`reader.get`); `reader.tx` throws. Half the round trips of the locked update.
   */
  optimistic?: boolean;
  /**
   * Statements that must commit with the new version (rows other tables keep about the document),
   * run after it is written, in its transaction; not run when nothing changed. Short: with
   * `optimistic` the transaction opens only for the write.
   */
  alongside?: (tx: Queryable, previous: D, next: D) => Promise<void>;
  /**
   * `false`: the new version's messages are appended, but no ResourceUpdated change notification
   * (§2.4: changes to orders made through order edits trigger none; OrderEditApplied tells).
   * Locked updates only (not with `optimistic`).
   */
  changeNotification?: false;
}

export interface DeleteOptions<D extends BaseResource> {
  dataErasure?: boolean;
  messages?: (doc: D) => MessagePayload[];
}
