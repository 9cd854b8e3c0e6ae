/**
 * Issue 29: the Extension resource `/{projectKey}/extensions` (reference: resources/extensions.raml,
 * types/extension): the versioned template's operations by id and key, ExtensionDraft validation,
 * every update action, secrets sealed at rest and partially hidden, the delete refused while
 * another Extension depends on it, predicates and sort, and change notifications delivered to an SQS
 * subscription (the reference has no Extension messages).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, expectError, labels, subscribedQueue } from '../subscriptions/support.js';

const P = 'extensions';
const HEADER = 'Bearer ext-header-secret-4711';
const AZURE_KEY = 'azure-function-key-0815abc';
const AWS_KEY = 'AKIAEXTENSIONKEY0001';
const AWS_SECRET = 'lambda-secret-Zq8pL2vX9mW4';
const ARN = 'arn:aws:lambda:eu-central-1:123456789012:function:validate-cart';
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;

const http = (path: string, authentication?: Json): Json => ({
  type: 'HTTP',
  url: `https://extensions.example.com/${path}`,
  ...(authentication === undefined ? {} : { authentication }),
});
const cartTrigger = (extra: Json = {}): Json => ({ resourceTypeId: 'cart', actions: ['Create'], ...extra });

describe('Extension /{projectKey}/extensions', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    // Sealed at rest like destination secrets.
    setup = await startSqsGateway(P, ['manage_extensions', 'manage_subscriptions'], { secretKey: 'extension-secrets-key-0123456789' });
    ({ sqs, gateway, admin } = setup);
  }, 180_000);
  afterAll(() => setup?.close());

  const updateOf = (extension: Json, actions: Json[]) => admin.post(`/${P}/extensions/${extension.id}`, { version: extension.version, actions });

  it('creates an Extension, hides its secrets in every answer, seals them at rest, reads it by id, key and query', async () => {
    const draft = {
      key: 'cart-check',
      destination: http('check', { type: 'AuthorizationHeader', headerValue: HEADER }),
      triggers: [cartTrigger({ condition: 'country = "DE"' })],
    };
    const created = await admin.ok(`/${P}/extensions`, draft, 201);
    expect(created).toMatchObject({
      version: 1,
      key: 'cart-check',
      destination: {
        type: 'HTTP',
        url: 'https://extensions.example.com/check',
        authentication: { type: 'AuthorizationHeader', headerValue: 'Bearer ext-****' },
      },
      triggers: [{ resourceTypeId: 'cart', actions: ['Create'], condition: 'country = "DE"' }],
    });
    // timeoutInMs is optional (default 2000 when called): not invented in answers.
    expect(created).not.toHaveProperty('timeoutInMs');

    const byId = await admin.read(`/${P}/extensions/${created.id}`);
    expect(byId).toEqual(created);
    expect(await admin.read(`/${P}/extensions/key=cart-check`)).toEqual(created);
    const page = await admin.read(`/${P}/extensions?${where('triggers(resourceTypeId = "cart")')}&sort=key%20asc`);
    expect(page.results.map((found: Json) => found.key)).toContain('cart-check');
    for (const answer of [created, byId, page]) expect(JSON.stringify(answer)).not.toContain(HEADER);

    const stored = await gateway.gateway.documents.get<Json & { id: string; version: number; createdAt: string; lastModifiedAt: string }>(P, 'extension', {
      id: created.id as string,
    });
    expect(stored?.destination.authentication.headerValue).toMatch(/^enc:v1:/);

    // A predicate or sort on a hidden secret would be an oracle for it.
    for (const query of [
      where('destination(authentication(headerValue = "x"))'),
      'sort=destination.authentication.headerValue%20asc',
      where('destination(accessSecret > "a")'),
    ]) {
      expectError(await admin.get(`/${P}/extensions?${query}`), 400, 'InvalidInput');
    }
    expect((await admin.get(`/${P}/extensions?${where('destination(type = "HTTP" and authentication(type = "AuthorizationHeader"))')}`)).status).toBe(200);

    // resources/extensions.raml: every operation needs manage_extensions.
    const other = await callerWith(gateway, P, ['manage_orders']);
    expect((await other.get(`/${P}/extensions/${created.id}`)).status).toBe(403);
  });

  it('accepts every destination type and the optional fields, with their defaults', async () => {
    const lambda = await admin.ok(
      `/${P}/extensions`,
      {
        destination: { type: 'AWSLambda', arn: ARN, accessKey: AWS_KEY, accessSecret: AWS_SECRET },
        triggers: [{ resourceTypeId: 'payment', actions: ['Create', 'Update', 'Create'] }],
        timeoutInMs: 10_000,
        expansionPaths: ['customer'],
        additionalContext: {},
      },
      201,
    );
    expect(lambda).toMatchObject({
      destination: { type: 'AWSLambda', arn: ARN, accessKey: 'AKIA****', accessSecret: 'lamb****' },
      triggers: [{ resourceTypeId: 'payment', actions: ['Create', 'Update'] }],
      timeoutInMs: 10_000,
      expansionPaths: ['customer'],
      additionalContext: { includeOldResource: false },
    });
    expect(JSON.stringify(lambda)).not.toContain(AWS_SECRET);
    const azure = await admin.ok(
      `/${P}/extensions`,
      { destination: http('azure', { type: 'AzureFunctions', key: AZURE_KEY }), triggers: [cartTrigger()] },
      201,
    );
    expect(azure.destination.authentication).toEqual({ type: 'AzureFunctions', key: 'azur****' });
    const google = await admin.ok(
      `/${P}/extensions`,
      {
        destination: { type: 'GoogleCloudFunction', url: 'https://europe-west1-p.cloudfunctions.net/f' },
        triggers: [{ resourceTypeId: 'business-unit', actions: ['Update'] }],
      },
      201,
    );
    expect(google.destination).toEqual({ type: 'GoogleCloudFunction', url: 'https://europe-west1-p.cloudfunctions.net/f' });
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    await admin.ok(`/${P}/extensions`, { key: 'taken', destination: http('taken'), triggers: [cartTrigger()] }, 201);
    const valid: Json = { destination: http('x'), triggers: [cartTrigger()] };
    const cases: Array<[string, unknown, string]> = [
      ['draft not an object', ['x'], 'InvalidInput'],
      ['no destination', { triggers: [cartTrigger()] }, 'RequiredField'],
      ['no triggers', { destination: http('x') }, 'RequiredField'],
      ['destination not an object', { ...valid, destination: 'https://x' }, 'InvalidInput'],
      ['unknown destination type', { ...valid, destination: { type: 'SQS', queueUrl: 'q' } }, 'InvalidInput'],
      ['HTTP without url', { ...valid, destination: { type: 'HTTP' } }, 'RequiredField'],
      ['HTTP url not a URL', { ...valid, destination: { type: 'HTTP', url: 'not a url' } }, 'InvalidInput'],
      ['HTTP url not http(s)', { ...valid, destination: { type: 'HTTP', url: 'ftp://x.example.com' } }, 'InvalidInput'],
      ['HTTP url with credentials', { ...valid, destination: { type: 'HTTP', url: 'https://user:pw@x.example.com' } }, 'InvalidInput'],
      ['unknown authentication type', { ...valid, destination: http('x', { type: 'Basic', headerValue: 'x' }) }, 'InvalidInput'],
      ['AuthorizationHeader without headerValue', { ...valid, destination: http('x', { type: 'AuthorizationHeader' }) }, 'RequiredField'],
      ['headerValue not a string', { ...valid, destination: http('x', { type: 'AuthorizationHeader', headerValue: 42 }) }, 'InvalidInput'],
      ['headerValue with a line break', { ...valid, destination: http('x', { type: 'AuthorizationHeader', headerValue: 'Bearer a\r\nX: y' }) }, 'InvalidInput'],
      ['AzureFunctions without key', { ...valid, destination: http('x', { type: 'AzureFunctions' }) }, 'RequiredField'],
      ['AWSLambda without arn', { ...valid, destination: { type: 'AWSLambda', accessKey: AWS_KEY, accessSecret: AWS_SECRET } }, 'RequiredField'],
      [
        'AWSLambda arn of another service',
        { ...valid, destination: { type: 'AWSLambda', arn: 'arn:aws:sqs:eu-central-1:123456789012:q', accessKey: AWS_KEY, accessSecret: AWS_SECRET } },
        'InvalidInput',
      ],
      ['AWSLambda without accessKey', { ...valid, destination: { type: 'AWSLambda', arn: ARN, accessSecret: AWS_SECRET } }, 'RequiredField'],
      ['AWSLambda without accessSecret', { ...valid, destination: { type: 'AWSLambda', arn: ARN, accessKey: AWS_KEY } }, 'RequiredField'],
      ['GoogleCloudFunction without url', { ...valid, destination: { type: 'GoogleCloudFunction' } }, 'RequiredField'],
      ['triggers empty', { ...valid, triggers: [] }, 'InvalidInput'],
      ['triggers not an array', { ...valid, triggers: cartTrigger() }, 'InvalidInput'],
      ['trigger without resourceTypeId', { ...valid, triggers: [{ actions: ['Create'] }] }, 'RequiredField'],
      ['trigger of a type no Extension serves', { ...valid, triggers: [{ resourceTypeId: 'product', actions: ['Create'] }] }, 'InvalidInput'],
      ['trigger without actions', { ...valid, triggers: [{ resourceTypeId: 'cart' }] }, 'RequiredField'],
      ['trigger with no action', { ...valid, triggers: [cartTrigger({ actions: [] })] }, 'InvalidInput'],
      ['trigger action Delete', { ...valid, triggers: [cartTrigger({ actions: ['Delete'] })] }, 'InvalidInput'],
      ['condition not a string', { ...valid, triggers: [cartTrigger({ condition: true })] }, 'InvalidInput'],
      ['condition malformed', { ...valid, triggers: [cartTrigger({ condition: 'country = ' })] }, 'InvalidInput'],
      ['timeoutInMs over the maximum', { ...valid, timeoutInMs: 10_001 }, 'InvalidInput'],
      ['timeoutInMs not an integer', { ...valid, timeoutInMs: 1.5 }, 'InvalidInput'],
      ['timeoutInMs a string', { ...valid, timeoutInMs: '2000' }, 'InvalidInput'],
      ['key too short', { ...valid, key: 'k' }, 'InvalidInput'],
      ['key of another Extension', { ...valid, key: 'taken' }, 'DuplicateField'],
      ['four expansion paths', { ...valid, expansionPaths: ['a', 'b', 'c', 'd'] }, 'InvalidInput'],
      ['expansionPaths not strings', { ...valid, expansionPaths: [1] }, 'InvalidInput'],
      ['includeOldResource not a boolean', { ...valid, additionalContext: { includeOldResource: 'yes' } }, 'InvalidInput'],
      ['dependencies not an array', { ...valid, dependencies: { key: 'taken' } }, 'InvalidInput'],
      ['a dependency that does not exist', { ...valid, dependencies: [{ typeId: 'extension', key: 'nowhere' }] }, 'ReferencedResourceNotFound'],
      ['a dependency of another type', { ...valid, dependencies: [{ typeId: 'cart', key: 'taken' }] }, 'InvalidInput'],
    ];
    for (const [label, draft, code] of cases) {
      const answer = await admin.post(`/${P}/extensions`, draft);
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ statusCode: 400, message: expect.any(String), errors: [{ code, message: expect.any(String) }] });
      // A refused secret is never echoed.
      expect(JSON.stringify(answer.body), label).not.toContain(AWS_SECRET);
    }
  });

  it('applies every update action and refuses bad ones', async () => {
    const first = await admin.ok(`/${P}/extensions`, { key: 'first', destination: http('first'), triggers: [cartTrigger()] }, 201);
    const extension = await admin.ok(`/${P}/extensions`, { key: 'second', destination: http('second'), triggers: [cartTrigger()] }, 201);
    const updated = await updateOf(extension, [
      { action: 'setKey', key: 'second-renamed' },
      { action: 'changeTriggers', triggers: [{ resourceTypeId: 'order', actions: ['Update'], condition: 'orderState = "Open"' }] },
      { action: 'changeDestination', destination: { type: 'AWSLambda', arn: ARN, accessKey: AWS_KEY, accessSecret: AWS_SECRET } },
      { action: 'setTimeoutInMs', timeoutInMs: 500 },
      { action: 'setDependencies', dependencies: [{ typeId: 'extension', key: 'first' }] },
      { action: 'setExpansionPaths', expansionPaths: ['customerGroup', 'paymentInfo.payments[*]'] },
      { action: 'setAdditionalContext', additionalContext: { includeOldResource: true } },
    ]);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({
      version: 2,
      key: 'second-renamed',
      triggers: [{ resourceTypeId: 'order', actions: ['Update'], condition: 'orderState = "Open"' }],
      destination: { type: 'AWSLambda', arn: ARN, accessKey: 'AKIA****', accessSecret: 'lamb****' },
      timeoutInMs: 500,
      dependencies: [{ typeId: 'extension', id: first.id }],
      expansionPaths: ['customerGroup', 'paymentInfo.payments[*]'],
      additionalContext: { includeOldResource: true },
    });

    const cleared = await updateOf(updated.body, [
      { action: 'setKey' },
      { action: 'setTimeoutInMs' },
      { action: 'setDependencies', dependencies: [] },
      { action: 'setExpansionPaths', expansionPaths: [] },
      { action: 'setAdditionalContext' },
    ]);
    expect(cleared.status).toBe(200);
    for (const field of ['key', 'timeoutInMs', 'dependencies', 'expansionPaths', 'additionalContext']) expect(cleared.body, field).not.toHaveProperty(field);

    const current = cleared.body;
    const refusals: Array<[string, Json, string]> = [
      ['a bad key', { action: 'setKey', key: 'a' }, 'InvalidInput'],
      ['the key of another Extension', { action: 'setKey', key: 'first' }, 'DuplicateField'],
      ['no triggers', { action: 'changeTriggers', triggers: [] }, 'InvalidInput'],
      ['a malformed condition', { action: 'changeTriggers', triggers: [cartTrigger({ condition: 'and and' })] }, 'InvalidInput'],
      ['no destination', { action: 'changeDestination' }, 'RequiredField'],
      ['a timeout over 10 s', { action: 'setTimeoutInMs', timeoutInMs: 20_000 }, 'InvalidInput'],
      ['a missing dependency', { action: 'setDependencies', dependencies: [{ id: 'nope' }] }, 'ReferencedResourceNotFound'],
      ['itself as a dependency', { action: 'setDependencies', dependencies: [{ id: current.id }] }, 'InvalidInput'],
      ['four expansion paths', { action: 'setExpansionPaths', expansionPaths: ['a', 'b', 'c', 'd'] }, 'InvalidInput'],
      ['an unknown action', { action: 'setUrl', url: 'https://x' }, 'InvalidInput'],
    ];
    for (const [label, action, code] of refusals) {
      const answer = await admin.post(`/${P}/extensions/${current.id}`, { version: current.version, actions: [action] });
      expect(answer.status, label).toBe(400);
      expect(answer.body.errors[0].code, label).toBe(code);
    }
    expectError(await updateOf(extension, [{ action: 'setKey', key: 'stale' }]), 409, 'ConcurrentModification');
  });

  it('keeps dependency chains within the reference limits, and an Extension others depend on from being deleted', async () => {
    const base = await admin.ok(`/${P}/extensions`, { key: 'base', destination: http('base'), triggers: [cartTrigger()] }, 201);
    const middle = await admin.ok(
      `/${P}/extensions`,
      { key: 'middle', destination: http('middle'), triggers: [cartTrigger()], dependencies: [{ key: 'base' }] },
      201,
    );
    await admin.ok(`/${P}/extensions`, { key: 'top', destination: http('top'), triggers: [cartTrigger()], dependencies: [{ id: middle.id }] }, 201);
    // A fourth layer: top → middle → base below it.
    expectError(
      await admin.post(`/${P}/extensions`, { destination: http('deep'), triggers: [cartTrigger()], dependencies: [{ key: 'top' }] }),
      400,
      'ExtensionChainTooDeep',
    );
    const six = [];
    for (let index = 0; index < 6; index += 1)
      six.push((await admin.ok(`/${P}/extensions`, { destination: http(`w${index}`), triggers: [cartTrigger()] }, 201)).id as string);
    const wide = await admin.post(`/${P}/extensions`, { destination: http('wide'), triggers: [cartTrigger()], dependencies: six.map((id) => ({ id })) });
    expectError(wide, 400, 'ExtensionChainTooWide');
    for (const [index, id] of six.entries()) expect((await admin.delete(`/${P}/extensions/${id}?version=1`)).status, String(index)).toBe(200);

    const refused = expectError(await admin.delete(`/${P}/extensions/key=base?version=1`), 400, 'ExtensionDependencyExists');
    expect(refused.message).toContain('middle');
    expect((await admin.read(`/${P}/extensions/${base.id}`)).version).toBe(1);
    expect((await admin.delete(`/${P}/extensions/key=top?version=1`)).status).toBe(200);
    expect((await admin.delete(`/${P}/extensions/key=middle?version=1`)).status).toBe(200);
    const deleted = await admin.delete(`/${P}/extensions/key=base?version=1`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.key).toBe('base');
    expect((await admin.get(`/${P}/extensions/${base.id}`)).status).toBe(404);
  });

  it('refuses a 26th Extension (MaxResourceLimitExceeded)', async () => {
    const page = await admin.read(`/${P}/extensions?withTotal=true&limit=1`);
    for (let count = page.total as number; count < 25; count += 1)
      await admin.ok(`/${P}/extensions`, { destination: http(`n${count}`), triggers: [cartTrigger()] }, 201);
    const refused = expectError(await admin.post(`/${P}/extensions`, { destination: http('n26'), triggers: [cartTrigger()] }), 400, 'MaxResourceLimitExceeded');
    expect(refused.exceededResource).toBe('extension');
    // Clean up for the delivery test below.
    const all = await admin.read(`/${P}/extensions?limit=100&${where('key is not defined')}`);
    for (const extension of all.results as Json[]) await admin.delete(`/${P}/extensions/${extension.id}?version=${extension.version}`);
  });

  it('delivers its change notifications to an SQS subscription, in sequence, without the secrets', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'extension');
    const extension = await admin.ok(
      `/${P}/extensions`,
      { key: 'delivered', destination: http('d', { type: 'AuthorizationHeader', headerValue: HEADER }), triggers: [cartTrigger()] },
      201,
    );
    await admin.update(`/${P}/extensions/${extension.id}`, 1, [{ action: 'setTimeoutInMs', timeoutInMs: 1000 }]);
    await admin.update(`/${P}/extensions/key=delivered`, 2, [{ action: 'setKey', key: 'delivered-too' }]);
    await admin.delete(`/${P}/extensions/${extension.id}?version=3`);

    const documents = await deliveriesAbout(sqs, queue, extension.id as string, 4);
    const id = extension.id as string;
    expect(labels(documents)).toEqual(
      [
        `extension:${id}:ResourceCreated:1`,
        `extension:${id}:ResourceUpdated:2`,
        `extension:${id}:ResourceUpdated:3`,
        `extension:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    expect(JSON.stringify(documents)).not.toContain('ext-header-secret');
  });
});
