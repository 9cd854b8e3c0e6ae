/**
 * `POST /{projectKey}/graphql` under documents that must be refused, not run: request errors
 * however the body is sent, reads that fan out beyond the budget, and names that are
 * Object.prototype members.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'gql-hostile';

describe('GraphQL documents that must not run or misread', () => {
  let gateway: TestGateway;
  let admin: Record<string, string>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = bearer(await tokenFor(gateway, P, ['manage_project']));
  });
  afterAll(async () => {
    await gateway?.close();
  });

  function graphql(body: Record<string, unknown>) {
    return gateway.app.inject({
      method: 'POST',
      url: `/${P}/graphql`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  }

  async function rest(method: 'POST' | 'GET', url: string, payload?: unknown) {
    const response = await gateway.app.inject({ method, url: `/${P}${url}`, headers: admin, ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: string; version: number };
  }

  /**
   * mercurius checks operation selection and variables before execution only when the body has a
   * `variables` member; without one the same refusal comes out of execution. Either way it is a
   * document that cannot run: 400.
   */
  describe('documents that cannot run answer 400 whether or not `variables` is sent', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a required variable that is not provided', { query: 'query ($x: Boolean!) { project @include(if: $x) { key } }' }],
      ['an operationName that names no operation', { query: 'query A { project { key } }', operationName: 'B' }],
      ['two operations and no operationName', { query: 'query A { project { key } } query B { project { key } }' }],
      ['a subscription operation (the schema has none)', { query: 'subscription S { project { key } }' }],
    ];

    it.each(cases)('%s: 400 with and without variables', async (_, body) => {
      for (const sent of [body, { ...body, variables: {} }]) {
        const response = await graphql(sent);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().errors[0].extensions.code).toMatch(/^GraphQL/);
        expect(response.json()).not.toHaveProperty('data');
      }
    });
  });

  /**
   * `ancestors` is a list of units, each with its own `ancestors`: nested, the answer grows with
   * the hierarchy's depth at every level, which no cost check before execution can see. On a chain
   * of 26 units, ten levels of it (within the depth limit) would be billions of units; the read
   * budget stops the request at 10,000 documents read.
   */
  describe('nested lists over a deep hierarchy', () => {
    beforeAll(async () => {
      await rest('POST', '/business-units', { key: 'chain-0', name: 'chain-0', unitType: 'Company' });
      for (let i = 1; i < 26; i++) {
        await rest('POST', '/business-units', { key: `chain-${i}`, name: `chain-${i}`, unitType: 'Division', parentUnit: { key: `chain-${i - 1}` } });
      }
    });

    it('runs two levels of ancestors (325 reads) in full', async () => {
      const response = await graphql({ query: '{ businessUnit(key: "chain-25") { ancestors { key ancestors { key } } } }' });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const ancestors = (response.json() as { data: { businessUnit: { ancestors: Array<{ key: string; ancestors: unknown[] }> } } }).data.businessUnit
        .ancestors;
      expect(ancestors.map((unit) => unit.key)).toEqual(Array.from({ length: 25 }, (_, i) => `chain-${i}`));
      expect(ancestors.map((unit) => unit.ancestors.length)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    });

    it('refuses ten levels of ancestors with 400 QueryComplexityExceeded once 10,000 documents were read', async () => {
      const query = `{ businessUnit(key: "chain-25") { ${'ancestors { '.repeat(10)}key${' }'.repeat(10)} } }`;
      const response = await graphql({ query });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(response.json()).toEqual({ errors: [{ message: expect.stringContaining('10000 documents'), extensions: { code: 'QueryComplexityExceeded' } }] });
    }, 30_000);
  });

  /** A locale named like an Object.prototype member is a locale the store has no name in. */
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('Store.name(locale: %j) is null, not an error', async (locale) => {
    await rest('POST', '/stores', { key: `named-${locale.replace(/_/g, 'u')}`, name: { en: 'Store' } }).catch(() => undefined);
    const unitKey = `unit-${locale.replace(/_/g, 'u')}`;
    await rest('POST', '/business-units', { key: unitKey, name: 'u', unitType: 'Company', stores: [{ key: `named-${locale.replace(/_/g, 'u')}` }] });
    const response = await graphql({ query: `{ businessUnit(key: "${unitKey}") { stores { name(locale: "${locale}") en: name(locale: "xx") } } }` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: { businessUnit: { stores: [{ name: null, en: null }] } } });
  });
});
