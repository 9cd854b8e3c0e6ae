import { concurrentModification, resourceNotFound, type MessagePayload } from '@herald/model';
import type { DocumentStore, Queryable } from '@herald/store';
import { scryptHash } from '../../oauth/secrets.js';
import { CUSTOMER_TYPE_ID, withRequiredFields, type Customer } from '../customers/customer.js';
import type { CustomerService } from '../customers/service.js';
import type { RequestContext } from '../shared/context.js';
import { emailTokenDraft, emailVerifyDraft, passwordTokenDraft, resetPasswordDraft } from './drafts.js';
import { expiredToken, tokenAnswer, type CustomerToken, type CustomerTokenKind, type StoredCustomerToken } from './token.js';
import { CustomerTokenStore } from './token-store.js';

/**
 * Whose token a request may use: in a store (`/in-store/key=…`) only the store's customers
 * (ResourceNotFound otherwise, customers-in-store.raml); on `/me` routes only the token's own
 * customer (me.raml: `customer_id:{id}`).
 */
export interface TokenPlace {
  storeKey?: string;
  customerId?: string;
}

/**
 * The e-mail verification and password reset flows (resources/customers.raml, me.raml,
 * in-store/customers-in-store.raml): issuing a token, reading its customer, and redeeming it,
 * which verifies the e-mail or replaces the password, once.
 */
export class CustomerTokenService {
  private readonly tokens: CustomerTokenStore;

  constructor(
    private readonly documents: DocumentStore,
    private readonly customers: CustomerService,
  ) {
    this.tokens = new CustomerTokenStore(documents, customers.clock);
  }

  async createEmailToken(ctx: RequestContext, body: unknown, storeKey: string | undefined): Promise<CustomerToken> {
    const request = emailTokenDraft(body);
    const customer = await this.customers.get(ctx.projectKey, { id: request.customerId }, storeKey);
    if (request.version !== undefined && request.version !== customer.version) throw concurrentModification(customer.version, request.version);
    const { stored, value } = await this.tokens.issue(ctx.write, 'email', customer.id, request);
    return tokenAnswer(stored, value);
  }

  async createPasswordToken(ctx: RequestContext, body: unknown, storeKey: string | undefined): Promise<CustomerToken> {
    const request = passwordTokenDraft(body);
    const login = await this.customers.findForLogin(ctx.projectKey, request.email, storeKey);
    if (login === undefined) throw resourceNotFound(`The Customer with the given e-mail was not found.`);
    const customer = await this.customers.get(ctx.projectKey, { id: login.customerId }, storeKey);
    const { stored, value } = await this.tokens.issue(ctx.write, 'password', customer.id, request);
    return tokenAnswer(stored, value);
  }

  /** `GET …/email-token={token}` and `…/password-token={token}`: the token's customer. */
  async customerOf(projectKey: string, kind: CustomerTokenKind, value: string, place: TokenPlace): Promise<Customer> {
    return (await this.usable(projectKey, kind, value, place)).customer;
  }

  /** `POST …/email/confirm`: the e-mail is verified (CustomerEmailVerified) and the kind's tokens are used up. */
  async confirmEmail(ctx: RequestContext, body: unknown, place: TokenPlace): Promise<Customer> {
    const request = emailVerifyDraft(body);
    const { token, customer } = await this.usable(ctx.projectKey, 'email', request.tokenValue, place);
    return this.documents.db.transaction(async (tx) => {
      await this.tokens.redeem(tx, ctx.write, 'email', token);
      return this.updateCustomer(tx, ctx, customer.id, request.version, (current) => {
        current.isEmailVerified = true;
        return [{ type: 'CustomerEmailVerified' }];
      });
    });
  }

  /**
   * `POST …/password/reset`: the new password (CustomerPasswordUpdated with `reset: true`); the
   * customer's access and refresh tokens are revoked with it (resources/customers.raml).
   */
  async resetPassword(ctx: RequestContext, body: unknown, place: TokenPlace): Promise<Customer> {
    const request = resetPasswordDraft(body);
    const { token, customer } = await this.usable(ctx.projectKey, 'password', request.tokenValue, place);
    // scrypt before the transaction: it takes tens of milliseconds and needs no lock.
    const passwordHash = await scryptHash(request.newPassword);
    const updated = await this.documents.db.transaction(async (tx) => {
      await this.tokens.redeem(tx, ctx.write, 'password', token);
      await this.customers.replacePassword(tx, ctx.projectKey, customer.id, passwordHash);
      return this.updateCustomer(tx, ctx, customer.id, request.version, () => [{ type: 'CustomerPasswordUpdated', reset: true }]);
    });
    this.customers.forgetTokens(updated.id);
    return updated;
  }

  /** A token that exists (404), has not expired (400) and whose customer this request may act for (404). */
  private async usable(
    projectKey: string,
    kind: CustomerTokenKind,
    value: string,
    place: TokenPlace,
  ): Promise<{ token: StoredCustomerToken; customer: Customer }> {
    const token = await this.tokens.find(projectKey, kind, value);
    // The value is not repeated in the message: error bodies are logged.
    const notFound = () => resourceNotFound(`The ${kind === 'email' ? 'email' : 'password'} token was not found.`);
    if (token === undefined) throw notFound();
    if (this.tokens.isExpired(token)) throw expiredToken(kind);
    if (place.customerId !== undefined && place.customerId !== token.customerId) throw notFound();
    return { token, customer: await this.customerFor(projectKey, token.customerId, place, notFound) };
  }

  /**
   * In a store, an API client reaches the store's customers only (CustomerService.get); a `/me`
   * token in a store, as everywhere in-store `/me`, also a global customer (mayActInStore).
   */
  private async customerFor(projectKey: string, customerId: string, place: TokenPlace, notFound: () => Error): Promise<Customer> {
    if (place.customerId === undefined) return this.customers.get(projectKey, { id: customerId }, place.storeKey);
    if (place.storeKey !== undefined && !(await this.customers.mayActInStore(projectKey, customerId, place.storeKey))) throw notFound();
    return this.customers.get(projectKey, { id: customerId }, undefined);
  }

  /** The customer's next version with the messages `change` gives, at the expected version (else the current one). */
  private async updateCustomer(
    tx: Queryable,
    ctx: RequestContext,
    customerId: string,
    version: number | undefined,
    change: (customer: Customer) => MessagePayload[],
  ): Promise<Customer> {
    const documents = this.documents.within(tx);
    const expected = version ?? (await documents.get<Customer>(ctx.projectKey, CUSTOMER_TYPE_ID, { id: customerId }))?.version ?? 0;
    const updated = await documents.update<Customer>(ctx.write, CUSTOMER_TYPE_ID, { id: customerId }, expected, (current) => {
      const customer = withRequiredFields(current);
      return { doc: customer, messages: change(customer) };
    });
    return withRequiredFields(updated);
  }
}
