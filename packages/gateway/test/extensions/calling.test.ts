/**
 * Issue 29: Herald calls the matching API Extensions before a create or update of a triggered type
 * is committed (reference: types/extension, the ExtensionInput and the Extension errors; spec
 * §4.4.10 for the correlation id). A real HTTP server on loopback and the testkit's Lambda peer
 * (through the AWS SDK) play the Extensions.
 */
import { startLambdaPeer, type LambdaPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import { bearer, type TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { expectError, sqsDocuments, payloadOf, subscribedQueue, eventually } from '../subscriptions/support.js';
import { startExtensionEndpoint, type ExtensionEndpoint } from './support.js';

const P = 'extension-calls';
const HEADER = 'Bearer call-secret-0123456789';
const AWS_KEY = 'AKIALAMBDACALLER0001';
const ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:cart-extension';

describe('API Extensions are called before a write commits', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let lambda: LambdaPeer;
  let endpoint: ExtensionEndpoint;
  let gateway: TestGateway;
  let admin: Caller;
  let extensions: Json[] = [];

  beforeAll(async () => {
    lambda = await startLambdaPeer({ accessKeyId: AWS_KEY });
    endpoint = await startExtensionEndpoint();
    setup = await startSqsGateway(P, ['manage_extensions', 'manage_orders', 'manage_subscriptions', 'manage_payments', 'manage_shopping_lists'], {
      extensions: { lambda: { endpoint: lambda.endpoint } },
    });
    ({ sqs, gateway, admin } = setup);
  }, 180_000);
  afterAll(async () => {
    await setup?.close();
    await endpoint?.stop();
    await lambda?.stop();
  });

  /** One Extension at a time: the previous ones are deleted first. */
  async function onlyExtension(draft: Json): Promise<Json> {
    for (const extension of extensions) await admin.delete(`/${P}/extensions/${extension.id}?version=${extension.version}`);
    extensions = [await admin.ok(`/${P}/extensions`, draft, 201)];
    return extensions[0] as Json;
  }
  const httpExtension = (path: string, extra: Json = {}, triggerExtra: Json = {}): Json => ({
    destination: { type: 'HTTP', url: `${endpoint.url}/${path}`, authentication: { type: 'AuthorizationHeader', headerValue: HEADER } },
    triggers: [{ resourceTypeId: 'cart', actions: ['Create', 'Update'], ...triggerExtra }],
    ...extra,
  });
  const cartCount = async (): Promise<number> => (await admin.read(`/${P}/carts?withTotal=true&limit=1`)).total as number;
  /** A request with our own correlation id (§4.4.10). */
  const postWith = async (url: string, payload: Json, correlationId: string) => {
    const response = await gateway.app.inject({ method: 'POST', url, headers: { ...bearer(admin.token), 'x-correlation-id': correlationId }, payload });
    return { status: response.statusCode, body: response.json() as Json };
  };

  it('applies the actions an HTTP Extension returns on create and on update, with the ExtensionInput and the correlation id', async () => {
    const extension = await onlyExtension(httpExtension('adds', { additionalContext: { includeOldResource: true } }));
    endpoint.answer((request) =>
      request.body.action === 'Create'
        ? { status: 201, body: { actions: [{ action: 'setCustomerEmail', email: 'from-extension@example.com' }] } }
        : { status: 200, body: { actions: [{ action: 'setKey', key: 'keyed-by-extension' }] } },
    );
    const created = await postWith(`/${P}/carts`, { currency: 'EUR' }, 'corr-create-0001');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ version: 1, customerEmail: 'from-extension@example.com' });
    expect(await admin.read(`/${P}/carts/${created.body.id}`)).toMatchObject({ version: 1, customerEmail: 'from-extension@example.com' });

    const [call] = endpoint.at('/adds');
    expect(call?.headers['x-correlation-id']).toBe('corr-create-0001');
    expect(call?.headers.authorization).toBe(HEADER);
    expect(call?.headers['content-type']).toBe('application/json');
    // ExtensionInput: the action and the resource as it will be, as an expanded reference.
    expect(call?.body).toMatchObject({
      action: 'Create',
      resource: { typeId: 'cart', id: created.body.id, obj: { id: created.body.id, version: 1, totalPrice: { currencyCode: 'EUR' } } },
    });
    expect(call?.body).not.toHaveProperty('oldResource');

    const updated = await postWith(`/${P}/carts/${created.body.id}`, { version: 1, actions: [{ action: 'setCountry', country: 'DE' }] }, 'corr-update-0002');
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    // One new version holds the request's change and the Extension's.
    expect(updated.body).toMatchObject({ version: 2, country: 'DE', key: 'keyed-by-extension' });
    const update = endpoint.at('/adds')[1];
    expect(update?.headers['x-correlation-id']).toBe('corr-update-0002');
    expect(update?.body).toMatchObject({ action: 'Update', resource: { typeId: 'cart', id: created.body.id, obj: { version: 2, country: 'DE' } } });
    // additionalContext.includeOldResource: the resource before the update.
    expect(update?.body.oldResource).toMatchObject({ typeId: 'cart', id: created.body.id, obj: { version: 1 } });
    expect(update?.body.oldResource.obj).not.toHaveProperty('country');
    expect(extension.id).toBeDefined();
  });

  it('sends the Azure function key as x-functions-key', async () => {
    await onlyExtension({
      ...httpExtension('azure'),
      destination: { type: 'HTTP', url: `${endpoint.url}/azure`, authentication: { type: 'AzureFunctions', key: 'azure-key-123456789' } },
    });
    endpoint.answer(() => ({ status: 200 }));
    await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    const [call] = endpoint.at('/azure');
    expect(call?.headers['x-functions-key']).toBe('azure-key-123456789');
    expect(call?.headers.authorization).toBeUndefined();
  });

  it('calls an AWS Lambda function through the SDK and applies its update actions', async () => {
    lambda.setFunction('cart-extension', (event) => {
      const input = event as Json;
      return {
        responseType: 'UpdateRequest',
        updateActions: [{ action: 'setCustomerEmail', email: `lambda-${input.resource.obj.totalPrice.currencyCode}@example.com` }],
      };
    });
    await onlyExtension({
      destination: { type: 'AWSLambda', arn: ARN, accessKey: AWS_KEY, accessSecret: 'lambda-secret-value-1' },
      triggers: [{ resourceTypeId: 'cart', actions: ['Create'] }],
    });
    const created = await postWith(`/${P}/carts`, { currency: 'USD' }, 'corr-lambda-0003');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.customerEmail).toBe('lambda-USD@example.com');
    const invocation = lambda.invocations.at(-1);
    expect(invocation).toMatchObject({
      functionName: 'cart-extension',
      accessKeyId: AWS_KEY,
      event: { action: 'Create', resource: { typeId: 'cart', id: created.body.id } },
    });
    expect(invocation?.clientContext).toEqual({ custom: { 'X-Correlation-ID': 'corr-lambda-0003' } });

    // FailedValidation: the function's errors reach the client.
    lambda.setFunction('cart-extension', () => ({ responseType: 'FailedValidation', errors: [{ code: 'InvalidInput', message: 'No carts in USD today.' }] }));
    const refused = expectError(await admin.post(`/${P}/carts`, { currency: 'USD' }), 400, 'InvalidInput');
    expect(refused).toMatchObject({ message: 'No carts in USD today.', errorByExtension: { id: extensions[0]?.id } });
    // A function that throws, and credentials the service does not know: a bad response.
    lambda.setFunction('cart-extension', () => {
      throw new Error('boom');
    });
    expectError(await admin.post(`/${P}/carts`, { currency: 'USD' }), 502, 'ExtensionBadResponse');
    await admin.ok(
      `/${P}/extensions/${extensions[0]?.id}`,
      {
        version: 1,
        actions: [{ action: 'changeDestination', destination: { type: 'AWSLambda', arn: ARN, accessKey: 'AKIAUNKNOWNKEY000001', accessSecret: 'x-secret' } }],
      },
      200,
    );
    extensions[0] = await admin.read(`/${P}/extensions/${extensions[0]?.id}`);
    const unknownKey = expectError(await admin.post(`/${P}/carts`, { currency: 'USD' }), 502, 'ExtensionBadResponse');
    expect(unknownKey.extensionStatusCode).toBe(403);
  });

  it('fails the request with the errors an Extension answers, in the error shape, and commits nothing', async () => {
    const extension = await onlyExtension(httpExtension('refuses'));
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    const before = await cartCount();
    endpoint.answer(() => ({
      status: 400,
      body: {
        errors: [
          { code: 'InvalidInput', message: 'At most 8 crates of beverages.', extensionExtraInfo: { limit: 8 }, localizedMessage: { en: 'Too many crates' } },
        ],
      },
    }));
    const refused = await admin.post(`/${P}/carts`, { currency: 'EUR' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      message: 'At most 8 crates of beverages.',
      errors: [
        {
          code: 'InvalidInput',
          message: 'At most 8 crates of beverages.',
          extensionExtraInfo: { limit: 8 },
          localizedMessage: { en: 'Too many crates' },
          errorByExtension: { id: extension.id },
        },
      ],
    });
    expectError(await admin.post(`/${P}/carts/${cart.id}`, { version: 1, actions: [{ action: 'setCountry', country: 'DE' }] }), 400, 'InvalidInput');
    expect(await cartCount()).toBe(before);
    expect(await admin.read(`/${P}/carts/${cart.id}`)).toMatchObject({ version: 1 });
    expect(await admin.read(`/${P}/carts/${cart.id}`)).not.toHaveProperty('country');
  });

  it('answers ExtensionNoResponse on a timeout or an unreachable endpoint, ExtensionBadResponse on an unusable answer', async () => {
    await onlyExtension(httpExtension('slow', { timeoutInMs: 300 }));
    endpoint.answer(() => 'hang');
    const timedOut = expectError(await admin.post(`/${P}/carts`, { currency: 'EUR' }), 504, 'ExtensionNoResponse');
    expect(timedOut.extensionId).toBe(extensions[0]?.id);

    const closed = await startExtensionEndpoint();
    await closed.stop();
    await onlyExtension({ ...httpExtension('gone'), key: 'gone', destination: { type: 'HTTP', url: `${closed.url}/gone` } });
    const unreachable = expectError(await admin.post(`/${P}/carts`, { currency: 'EUR' }), 504, 'ExtensionNoResponse');
    expect(unreachable.extensionKey).toBe('gone');

    await onlyExtension(httpExtension('bad'));
    const answers: Array<[string, { status: number; body?: unknown }]> = [
      ['not JSON', { status: 200, body: '<html>hello</html>' }],
      ['a 500', { status: 500, body: { message: 'oops' } }],
      ['a redirect', { status: 302, body: '' }],
      ['actions not an array', { status: 200, body: { actions: { action: 'setKey' } } }],
      ['a 400 without errors', { status: 400, body: { message: 'no' } }],
    ];
    for (const [label, answer] of answers) {
      endpoint.answer(() => answer);
      const bad = await admin.post(`/${P}/carts`, { currency: 'EUR' });
      expect(bad.status, label).toBe(502);
      expect(bad.body.errors[0], label).toMatchObject({ code: 'ExtensionBadResponse', extensionId: extensions[0]?.id });
    }
    endpoint.answer(() => ({ status: 500, body: 'down' }));
    expect((await admin.post(`/${P}/carts`, { currency: 'EUR' })).body.errors[0]).toMatchObject({ extensionStatusCode: 500, extensionBody: 'down' });

    // Update actions the cart refuses: ExtensionUpdateActionsFailed with the cause.
    endpoint.answer(() => ({ status: 200, body: { actions: [{ action: 'setCountry', country: 'Germany' }] } }));
    const failed = expectError(await admin.post(`/${P}/carts`, { currency: 'EUR' }), 400, 'ExtensionUpdateActionsFailed');
    expect(failed.extensionErrors).toEqual([expect.objectContaining({ code: 'InvalidInput', extensionId: extensions[0]?.id })]);
  });

  it('calls an Extension only when its trigger condition holds; a compared field the resource lacks is ExtensionPredicateEvaluationFailed', async () => {
    await onlyExtension(httpExtension('conditional', {}, { condition: 'totalPrice(currencyCode = "EUR") and country = "DE"' }));
    endpoint.answer(() => ({ status: 200, body: { actions: [{ action: 'setKey', key: `conditional-${endpoint.at('/conditional').length}` }] } }));
    const calls = () => endpoint.at('/conditional').length;

    const usd = await admin.ok(`/${P}/carts`, { currency: 'USD', country: 'DE' }, 201);
    expect(calls()).toBe(0);
    expect(usd).not.toHaveProperty('key');
    const eurDe = await admin.ok(`/${P}/carts`, { currency: 'EUR', country: 'DE' }, 201);
    expect(calls()).toBe(1);
    expect(eurDe.key).toBe('conditional-1');
    // Evaluated on the resource as the update makes it.
    const eurAt = await admin.ok(`/${P}/carts`, { currency: 'EUR', country: 'AT' }, 201);
    expect(calls()).toBe(1);
    expect((await admin.update(`/${P}/carts/${eurAt.id}`, 1, [{ action: 'setCountry', country: 'DE' }])).key).toBe('conditional-2');

    const missing = expectError(await admin.post(`/${P}/carts`, { currency: 'EUR' }), 400, 'ExtensionPredicateEvaluationFailed');
    expect(missing.errorByExtension).toEqual({ id: extensions[0]?.id });
    expect(calls()).toBe(2);
  });

  it('triggers per resource type and action: a payment Extension for Create is not called on update, nor for carts', async () => {
    await onlyExtension({ ...httpExtension('payments'), triggers: [{ resourceTypeId: 'payment', actions: ['Create'] }] });
    endpoint.answer(() => ({ status: 200, body: { actions: [{ action: 'setKey', key: 'payment-by-extension' }] } }));
    const payment = await admin.ok(`/${P}/payments`, { amountPlanned: { currencyCode: 'EUR', centAmount: 1000 } }, 201);
    expect(payment.key).toBe('payment-by-extension');
    await admin.update(`/${P}/payments/${payment.id}`, 1, [{ action: 'setKey', key: 'renamed' }]);
    await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    expect(endpoint.at('/payments').map((request) => request.body.resource.typeId)).toEqual(['payment']);
  });

  it("calls a shopping-list Extension and applies its update actions with the shopping list's own handlers", async () => {
    await onlyExtension({ ...httpExtension('lists'), triggers: [{ resourceTypeId: 'shopping-list', actions: ['Create', 'Update'] }] });
    endpoint.answer(() => ({ status: 200, body: { actions: [{ action: 'setDescription', description: { en: 'by extension' } }] } }));
    const list = await admin.ok(`/${P}/shopping-lists`, { name: { en: 'Wishes' } }, 201);
    expect(list).toMatchObject({ version: 1, description: { en: 'by extension' } });
    const renamed = await admin.update(`/${P}/shopping-lists/${list.id}`, 1, [{ action: 'changeName', name: { en: 'Wishes too' } }]);
    expect(renamed).toMatchObject({ version: 2, name: { en: 'Wishes too' }, description: { en: 'by extension' } });
    expect(endpoint.at('/lists').map((request) => [request.body.action, request.body.resource.typeId])).toEqual([
      ['Create', 'shopping-list'],
      ['Update', 'shopping-list'],
    ]);
  });

  it('notifies nothing about a write an Extension refused', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'cart');
    await onlyExtension(httpExtension('gate'));
    endpoint.answer(() => ({ status: 200 }));
    const cart = await admin.ok(`/${P}/carts`, { currency: 'EUR' }, 201);
    endpoint.answer(() => ({ status: 400, body: { errors: [{ code: 'InvalidOperation', message: 'Closed.' }] } }));
    expectError(await admin.post(`/${P}/carts`, { currency: 'EUR' }), 400, 'InvalidOperation');
    const refusedCartId = endpoint.at('/gate').at(-1)?.body.resource.id as string;
    expectError(await admin.post(`/${P}/carts/${cart.id}`, { version: 1, actions: [{ action: 'setCountry', country: 'DE' }] }), 400, 'InvalidOperation');
    endpoint.answer(() => ({ status: 200 }));
    await admin.update(`/${P}/carts/${cart.id}`, 1, [{ action: 'setCountry', country: 'AT' }]);

    // Everything the queue gets until the successful update arrived, which was written after the refusals.
    const received: Json[] = [];
    await eventually(async () => {
      received.push(...sqsDocuments(await sqs.receiveAll(queue)).map(payloadOf));
      expect(received.some((payload) => payload.resource?.id === cart.id && payload.version === 2)).toBe(true);
    });
    expect(received.filter((payload) => payload.resource?.id === refusedCartId)).toEqual([]);
    const aboutCart = received.filter((payload) => payload.resource?.id === cart.id && payload.notificationType !== 'Message');
    expect(aboutCart.map((payload) => `${payload.notificationType}:${payload.version}`).sort()).toEqual(['ResourceCreated:1', 'ResourceUpdated:2']);
  });
});
