/**
 * Test helpers for business units and GraphQL: callers bound to real tokens (API clients and
 * customers through the password flow), GraphQL requests over `inject`, and the messages a
 * resource produced, read back through the Messages API. Built on test/support/gateway.ts.
 */
import { expect } from 'vitest';
import { bearer, customerTokenFor, tokenFor, type TestGateway } from '../support/gateway.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are JSON whose shape each assertion checks
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  body: Json;
}

export interface GraphQLAnswer {
  status: number;
  data: Json | null | undefined;
  errors: Json[] | undefined;
}

/** One token's view of the API: REST and GraphQL. */
export class Client {
  constructor(
    private readonly gateway: TestGateway,
    readonly projectKey: string,
    readonly token: string,
    /** The customer a customer token acts for. */
    readonly customerId?: string,
  ) {}

  async rest(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown): Promise<Answer> {
    const response = await this.gateway.app.inject({
      method,
      url: `/${this.projectKey}${path}`,
      headers: bearer(this.token),
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    return { status: response.statusCode, body: response.json() as Json };
  }

  /** A REST call that must answer `status`; returns the body. */
  async ok(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown, status = 200): Promise<Json> {
    const answer = await this.rest(method, path, payload);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body;
  }

  async graphql(query: string, variables?: Json): Promise<GraphQLAnswer> {
    const response = await this.gateway.app.inject({
      method: 'POST',
      url: `/${this.projectKey}/graphql`,
      headers: bearer(this.token),
      payload: variables === undefined ? { query } : { query, variables },
    });
    const body = response.json() as Json;
    return { status: response.statusCode, data: body.data as Json | null | undefined, errors: body.errors as Json[] | undefined };
  }

  /** A GraphQL request that must succeed without errors; returns `data`. */
  async gql(query: string, variables?: Json): Promise<Json> {
    const answer = await this.graphql(query, variables);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.status).toBe(200);
    return answer.data as Json;
  }

  /** A GraphQL request that must fail with exactly one error; returns it. */
  async gqlError(query: string, variables?: Json): Promise<Json> {
    const answer = await this.graphql(query, variables);
    expect(answer.status).toBe(200);
    expect(answer.errors, JSON.stringify(answer.data)).toHaveLength(1);
    return (answer.errors as Json[])[0] as Json;
  }
}

export async function apiClient(gateway: TestGateway, projectKey: string, scopes: readonly string[]): Promise<Client> {
  return new Client(gateway, projectKey, await tokenFor(gateway, projectKey, scopes));
}

/** A new customer (signed up through the API) and its password-flow token. */
export async function customerClient(gateway: TestGateway, projectKey: string, scopes: readonly string[]): Promise<Client> {
  const { accessToken, customerId } = await customerTokenFor(gateway, projectKey, scopes);
  return new Client(gateway, projectKey, accessToken, customerId);
}

/** The messages of one resource, oldest first, through the Messages API. */
export async function messagesOf(reader: Client, resourceId: string): Promise<Json[]> {
  const query = new URLSearchParams({ where: `resource(id = "${resourceId}")`, sort: 'sequenceNumber asc', limit: '500' });
  const page = await reader.ok('GET', `/messages?${query.toString()}`);
  return page.results as Json[];
}

/** The last message of a resource. */
export async function lastMessageOf(reader: Client, resourceId: string): Promise<Json> {
  const messages = await messagesOf(reader, resourceId);
  return messages[messages.length - 1] as Json;
}

/** Every scalar and reference field of BusinessUnit (§2.2), for GraphQL selections. */
export const UNIT_FIELDS = /* GraphQL */ `
  id version key name contactEmail status storeMode unitType
  addresses { id key country city custom { typeRef { id } customFieldsRaw { name value } } }
  shippingAddressIds billingAddressIds defaultShippingAddressId defaultBillingAddressId
  shippingAddresses { id } billingAddresses { id }
  defaultShippingAddress { id } defaultBillingAddress { id }
  storesRef { typeId key } stores { key }
  associates { roles customerRef { typeId id } }
  custom { typeRef { typeId id } customFieldsRaw { name value } }
  parentUnitRef { typeId key } parentUnit { key }
  ancestors { key } topLevelUnitRef { typeId key } topLevelUnit { key }
  createdAt lastModifiedAt createdBy { clientId } lastModifiedBy { clientId }
`;

export const address = (country = 'DE', extra: Json = {}): Json => ({ country, city: 'Berlin', streetName: 'Hauptstraße', ...extra });
