/**
 * Issue 29: when an Extension fires for an update, the request's update actions run once, and the
 * Extension's actions are applied after them in the write's transaction. Observed through what an
 * update does beyond its document: a business unit moved under another parent updates its
 * descendants (their own writes, each calling the business-unit Extension): once per descendant,
 * and along the ancestry as written, the Extension's own changeParentUnit included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startExtensionEndpoint, type ExtensionEndpoint } from './support.js';

const P = 'extension-update-once';

describe('an Extension on update: the request actions run once', { timeout: 60_000 }, () => {
  let endpoint: ExtensionEndpoint;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    endpoint = await startExtensionEndpoint();
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_extensions', 'manage_business_units']);
    for (const key of ['acme', 'globex', 'initech']) await admin.ok(`/${P}/business-units`, { key, name: key, unitType: 'Company' }, 201);
    await admin.ok(`/${P}/business-units`, { key: 'sales', name: 'Sales', unitType: 'Division', parentUnit: { key: 'acme' } }, 201);
    await admin.ok(`/${P}/business-units`, { key: 'sales-emea', name: 'Sales EMEA', unitType: 'Division', parentUnit: { key: 'sales' } }, 201);
    await admin.ok(
      `/${P}/extensions`,
      { destination: { type: 'HTTP', url: `${endpoint.url}/units` }, triggers: [{ resourceTypeId: 'business-unit', actions: ['Update'] }] },
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await endpoint?.stop();
  });

  const unit = (key: string): Promise<Json> => admin.read(`/${P}/business-units/key=${key}`);
  const callsAbout = (id: string): number => endpoint.at('/units').filter((request) => request.body.resource?.id === id).length;
  const moveSales = async (parent: string): Promise<Json> => {
    const sales = await unit('sales');
    return admin.ok(`/${P}/business-units/key=sales`, { version: sales.version, actions: [{ action: 'changeParentUnit', parentUnit: { key: parent } }] });
  };

  it("moves a unit's descendants once: one write, one Extension call each", async () => {
    endpoint.answer(() => ({ status: 200, body: {} }));
    const sales = await unit('sales');
    const emea = await unit('sales-emea');
    const moved = await moveSales('globex');
    expect(moved).toMatchObject({ parentUnit: { key: 'globex' }, ancestors: [{ key: 'globex' }], version: sales.version + 1 });
    expect(callsAbout(sales.id as string)).toBe(1);
    // The descendant's update ran once: one call for it, one version more.
    expect(callsAbout(emea.id as string)).toBe(1);
    expect(await unit('sales-emea')).toMatchObject({
      version: emea.version + 1,
      ancestors: [{ key: 'globex' }, { key: 'sales' }],
      topLevelUnit: { key: 'globex' },
    });
  });

  it("applies the Extension's actions after the request's, and the descendants follow the ancestry as written", async () => {
    const sales = await unit('sales');
    const emea = await unit('sales-emea');
    // The Extension overrules the move of `sales` (and answers nothing for the descendant's update).
    endpoint.answer((request) =>
      request.body.resource?.id === sales.id
        ? { status: 200, body: { actions: [{ action: 'changeParentUnit', parentUnit: { typeId: 'business-unit', key: 'initech' } }] } }
        : { status: 200, body: {} },
    );
    const moved = await moveSales('acme');
    expect(moved).toMatchObject({
      parentUnit: { key: 'initech' },
      ancestors: [{ key: 'initech' }],
      topLevelUnit: { key: 'initech' },
      version: sales.version + 1,
    });
    // The Extension saw the request's result, once.
    const calls = endpoint.at('/units').filter((request) => request.body.resource?.id === sales.id);
    expect(calls.at(-1)?.body.resource.obj).toMatchObject({ parentUnit: { key: 'acme' } });
    expect(callsAbout(sales.id as string)).toBe(2);
    expect(callsAbout(emea.id as string)).toBe(2);
    expect(await unit('sales-emea')).toMatchObject({
      version: emea.version + 1,
      ancestors: [{ key: 'initech' }, { key: 'sales' }],
      topLevelUnit: { key: 'initech' },
    });
  });
});
