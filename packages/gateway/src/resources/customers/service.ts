import { randomUUID } from 'node:crypto';
import { ApiError, duplicateField, resourceNotFound, type Clock } from '@herald/model';
import { runPagedQuery, type DocumentStore, type Locator, type PagedQueryResponse, type QueryRequest, type Queryable } from '@herald/store';
import { scryptHash, UNMATCHABLE_PASSWORD_HASH, verifySecret } from '../../oauth/secrets.js';
import type { CustomerLogin } from '../../oauth/token-service.js';
import type { RequestContext } from '../shared/context.js';
import { applyActions, parseUpdateBody, type ActionHandlers } from '../shared/update-actions.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { customerActions } from './actions.js';
import type { CustomerCredentials } from './credentials.js';
import { belongsToStore, CUSTOMER_TYPE_ID, withRequiredFields, type Customer } from './customer.js';
import { externalAuthHasNoPassword } from './authentication-mode.js';
import { parseCustomerDraft } from './draft.js';

/** Revokes a deleted customer's tokens (the OAuth module). */
export interface CustomerTokenRevoker {
  /** Deletes the customer's tokens in the caller's transaction. */
  deleteCustomerTokens(tx: Queryable, customerId: string): Promise<void>;
  /** After that transaction committed: in-memory caches forget the customer's tokens. */
  forgetCustomerTokens(customerId: string): void;
}

export interface CustomerServiceDeps {
  documents: DocumentStore;
  credentials: CustomerCredentials;
  tokens: CustomerTokenRevoker;
  clock: Clock;
}

/**
 * Customers of a project, or of one store (`storeKey`): in-store requests see and change only
 * the customers of that store, and the store must exist. The password flow signs them in here too.
 */
export class CustomerService implements CustomerLogin {
  private readonly actions: ActionHandlers<Customer>;

  constructor(private readonly deps: CustomerServiceDeps) {
    this.actions = customerActions(deps.credentials, deps.clock);
  }

  /**
   * The password hash is written first, under the customer id the document will get, and removed
   * again if the document cannot be created. A crash in between leaves a hash for an id that no
   * customer has: unreachable, because sign-in always starts from the customer document.
   */
  async create(ctx: RequestContext, body: unknown, storeKey: string | undefined): Promise<Customer> {
    if (storeKey !== undefined) await this.requireStore(ctx.projectKey, storeKey);
    const { fields, stores: drafted, password } = await parseCustomerDraft(body, ctx);
    const { credentials, documents } = this.deps;
    // An in-store sign-up belongs to the store of the path, besides any the draft names.
    const stores = storeKey === undefined ? drafted : [{ typeId: 'store' as const, key: storeKey }, ...drafted.filter((store) => store.key !== storeKey)];
    for (const scope of stores.length === 0 ? [undefined] : stores.map((store) => store.key)) {
      if (await credentials.emailTaken(documents.db, ctx.projectKey, fields.email, scope)) throw duplicateField('email', fields.email);
    }
    const id = randomUUID();
    // An ExternalAuth customer has no password (AuthenticationMode.raml): none is stored.
    if (password !== undefined) await credentials.savePassword(ctx.projectKey, id, await scryptHash(password), this.deps.clock.now().toISOString());
    try {
      return await documents.create<Customer>(ctx.write, CUSTOMER_TYPE_ID, { id, ...fields, stores }, (customer) => [{ type: 'CustomerCreated', customer }]);
    } catch (error) {
      if (password !== undefined) await credentials.deletePassword(ctx.projectKey, id);
      throw await this.explainDuplicate(error, ctx.projectKey, fields);
    }
  }

  async get(projectKey: string, locator: Locator, storeKey: string | undefined): Promise<Customer> {
    if (storeKey !== undefined) await this.requireStore(projectKey, storeKey);
    const customer = await this.deps.documents.get<Customer>(projectKey, CUSTOMER_TYPE_ID, locator);
    if (customer === undefined || !inScope(customer, storeKey)) throw resourceNotFound(notFoundMessage(CUSTOMER_TYPE_ID, locator));
    return withRequiredFields(customer);
  }

  /** §5.3 password flow: in a store that exists, like every other in-store route. */
  async findForLogin(projectKey: string, email: string, storeKey: string | undefined): Promise<{ customerId: string; passwordHash: string } | undefined> {
    if (storeKey !== undefined) await this.requireStore(projectKey, storeKey);
    return this.deps.credentials.findForLogin(projectKey, email, storeKey);
  }

  async exists(projectKey: string, customerId: string): Promise<boolean> {
    return (await this.deps.documents.get<Customer>(projectKey, CUSTOMER_TYPE_ID, { id: customerId })) !== undefined;
  }

  /**
   * In-store `/me` routes: exactly the rule of the in-store password flow (credentials.findForLogin,
   * `store IN ('', storeKey)`): the store's own customers and global customers (no store) may act
   * in the store, customers of another store may not. A customer that no longer exists may not.
   */
  async mayActInStore(projectKey: string, customerId: string, storeKey: string): Promise<boolean> {
    const customer = await this.deps.documents.get<Customer>(projectKey, CUSTOMER_TYPE_ID, { id: customerId });
    if (customer === undefined) return false;
    return withRequiredFields(customer).stores.length === 0 || belongsToStore(customer, storeKey);
  }

  async query(projectKey: string, request: QueryRequest, storeKey: string | undefined): Promise<PagedQueryResponse<Customer>> {
    const page = await this.queryDocuments(projectKey, request, storeKey);
    page.results = page.results.map(withRequiredFields);
    return page;
  }

  private async queryDocuments(projectKey: string, request: QueryRequest, storeKey: string | undefined): Promise<PagedQueryResponse<Customer>> {
    if (storeKey === undefined) return this.deps.documents.query<Customer>(projectKey, CUSTOMER_TYPE_ID, request);
    await this.requireStore(projectKey, storeKey);
    return runPagedQuery<Customer>(
      this.deps.documents.db,
      'resources',
      ['r.project_key = $1', 'r.type_id = $2', "r.doc->'stores' @> $3::jsonb"],
      [projectKey, CUSTOMER_TYPE_ID, JSON.stringify([{ key: storeKey }])],
      request,
    );
  }

  async update(ctx: RequestContext, locator: Locator, body: unknown, storeKey: string | undefined): Promise<Customer> {
    const { version, actions } = parseUpdateBody(body);
    // In a store, a customer the store cannot see is not found — before the version is compared,
    // or a stale version's 409 (with currentVersion) would tell that it exists. (Checked again
    // below, on the version the update applies to.)
    if (storeKey !== undefined) await this.get(ctx.projectKey, locator, storeKey);
    let attempted: Customer | undefined;
    try {
      return await this.deps.documents.update<Customer>(ctx.write, CUSTOMER_TYPE_ID, locator, version, async (current, reader) => {
        if (!inScope(withRequiredFields(current), storeKey)) throw resourceNotFound(notFoundMessage(CUSTOMER_TYPE_ID, locator));
        const messages = await applyActions(this.actions, current, actions, { ctx, reader });
        attempted = current;
        return { doc: current, messages };
      });
    } catch (error) {
      // `changeEmail` checks that the e-mail is free, but a concurrent update can take it before
      // this one commits: the unique index then answers, and the store names 'key' for it.
      if (attempted === undefined) throw error;
      throw await this.explainDuplicate(error, ctx.projectKey, attempted, attempted.id);
    }
  }

  /** Deletes the customer, its password hash and its tokens; `dataErasure` also its messages (§4.4.9). */
  async delete(ctx: RequestContext, locator: Locator, version: number, dataErasure: boolean, storeKey: string | undefined): Promise<Customer> {
    const customer = await this.get(ctx.projectKey, locator, storeKey);
    const { credentials, documents, tokens } = this.deps;
    // The document, the password and the tokens in ONE transaction: were the tokens deleted in a
    // second one, its failure would leave a deleted customer's tokens working (Herald's own tokens
    // are not checked against the customer's existence, oauth-authenticator.ts); now a failure
    // keeps the customer whole, and the deletion can be retried.
    // The password before the tokens: a sign-in that is issuing tokens holds the password row
    // (token-store.ts), so this waits for it and then deletes its tokens too; a sign-in that comes
    // later finds the row gone and issues none.
    const deleted = await documents.db.transaction(async (tx) => {
      const doc = await documents.within(tx).delete<Customer>(ctx.write, CUSTOMER_TYPE_ID, { id: customer.id }, version, {
        dataErasure,
        // CustomerDeletedMessagePayload: the e-mail of the deleted customer.
        messages: (gone) => [{ type: 'CustomerDeleted', email: gone.email }],
      });
      await credentials.deletePassword(ctx.projectKey, doc.id, tx);
      await tokens.deleteCustomerTokens(tx, doc.id);
      return doc;
    });
    // After the commit: in-memory caches forget the tokens deleted with it.
    tokens.forgetCustomerTokens(deleted.id);
    return deleted;
  }

  /** The clock of the customers' timestamps (token expiry reads it too). */
  get clock(): Clock {
    return this.deps.clock;
  }

  /**
   * Password reset (resources/customers.raml `/password/reset`): the new hash and the deletion of
   * the customer's access and refresh tokens, in the caller's transaction (the reset's); after it
   * committed, `forgetTokens` clears the caches as `delete` does.
   */
  async replacePassword(tx: Queryable, projectKey: string, customerId: string, passwordHash: string): Promise<void> {
    // A token issued before the customer switched to ExternalAuth: that mode has no password
    // (AuthenticationMode.raml), so none is set by a reset; setAuthenticationMode sets one.
    if (!(await this.deps.credentials.replacePassword(tx, projectKey, customerId, passwordHash))) throw externalAuthHasNoPassword();
    await this.deps.tokens.deleteCustomerTokens(tx, customerId);
  }

  /**
   * Password change (resources/customers.raml, me.raml `/password`): the new hash and the
   * customer's next version with CustomerPasswordUpdated `reset: false`, in one transaction, at the
   * expected version. Unlike a reset, the reference revokes no tokens here: the sessions stay.
   */
  async changePassword(ctx: RequestContext, customerId: string, version: number, passwordHash: string): Promise<Customer> {
    const { credentials, documents } = this.deps;
    const updated = await documents.update<Customer>(
      ctx.write,
      CUSTOMER_TYPE_ID,
      { id: customerId },
      version,
      (current) => ({ doc: current, messages: [{ type: 'CustomerPasswordUpdated', reset: false }] }),
      {
        alongside: async (tx) => {
          if (!(await credentials.replacePassword(tx, ctx.projectKey, customerId, passwordHash))) throw externalAuthHasNoPassword();
        },
      },
    );
    return withRequiredFields(updated);
  }

  /** Whether `password` is the customer's; checked against a dummy hash when it has none, so it takes as long. */
  async passwordMatches(projectKey: string, customerId: string, password: string): Promise<boolean> {
    const stored = await this.deps.credentials.passwordHashOf(projectKey, customerId);
    const matches = await verifySecret(password, stored ?? UNMATCHABLE_PASSWORD_HASH);
    return stored !== undefined && matches;
  }

  forgetTokens(customerId: string): void {
    this.deps.tokens.forgetCustomerTokens(customerId);
  }

  private async requireStore(projectKey: string, storeKey: string): Promise<void> {
    const store = await this.deps.documents.get(projectKey, 'store', { key: storeKey });
    if (store === undefined) throw resourceNotFound(`The store with key '${storeKey}' was not found.`);
  }

  /**
   * The store maps every unique violation to DuplicateField 'key'; a customer can also collide on
   * its e-mail (the index of migration 002), so look which one it was. On update, `selfId` is the
   * customer itself: finding its own key is no collision.
   */
  private async explainDuplicate(error: unknown, projectKey: string, fields: { key?: string; email: string }, selfId?: string): Promise<unknown> {
    if (!(error instanceof ApiError) || error.code !== 'DuplicateField') return error;
    if (fields.key !== undefined) {
      const sameKey = await this.deps.documents.get(projectKey, CUSTOMER_TYPE_ID, { key: fields.key });
      if (sameKey !== undefined && sameKey.id !== selfId) return error;
    }
    return duplicateField('email', fields.email);
  }
}

/** In-store routes see the customers that belong to the store (one of their stores). */
function inScope(customer: Customer, storeKey: string | undefined): boolean {
  return storeKey === undefined || belongsToStore(customer, storeKey);
}
