/**
 * Destination secrets are partially hidden in every response (§2.4), also when the stored secret
 * cannot be opened because HERALD_SECRET_KEY was rotated or removed: the gateway then answers the
 * stored, sealed destination, masked. The Service Bus `connectionString` is sealed as a whole, so it
 * has no `SharedAccessKey=` segment to mask: it must be answered as `enc:****` like the other kinds,
 * never as the ciphertext (which the holder of the previous key could open). */
import { AesGcmSecretBox, parseWorkerConfig } from '@herald/delivery';
import { startEventGridPeer, startServiceBusPeer, startSqsPeer, type EventGridPeer, type ServiceBusPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../../src/app.js';
import { defaultConfig, type HeraldConfig } from '../../src/config/config.js';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'rotated';
const REGION = 'us-east-1';
const OLD_KEY = 'old-sealing-key-0001-of-enough-length';
const NEW_KEY = 'new-sealing-key-0002-of-enough-length';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('a destination sealed with another HERALD_SECRET_KEY is still partially hidden in responses', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let serviceBus: ServiceBusPeer;
  let eventGrid: EventGridPeer;
  let original: TestGateway;
  const later: { gateway: Gateway; token: string }[] = [];
  const ids: Record<'bus' | 'sqs' | 'grid', string> = { bus: '', sqs: '', grid: '' };
  const sqsSecret = 'sqs-secret-7f3a9c1e5b2d';

  beforeAll(async () => {
    [sqs, serviceBus, eventGrid] = await Promise.all([startSqsPeer({ region: REGION }), startServiceBusPeer(), startEventGridPeer()]);
    original = await startTestGateway({ projects: [P], delivery: { environment: { endpoints: { sqs: sqs.endpoint } }, secretKey: OLD_KEY } });
    const token = await tokenFor(original, P, ['manage_subscriptions']);
    const create = async (body: Json): Promise<string> => {
      const response = await original.app.inject({ method: 'POST', url: `/${P}/subscriptions`, headers: bearer(token), payload: body });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as Json).id as string;
    };
    serviceBus.createEntity('rotated-queue');
    const onStores = { changes: [{ resourceTypeId: 'store' }] };
    ids.bus = await create({
      key: 'bus',
      destination: { type: 'ProviderBServiceBus', connectionString: serviceBus.connectionString('rotated-queue') },
      ...onStores,
    });
    ids.sqs = await create({
      key: 'sqs',
      destination: { type: 'SQS', queueUrl: sqs.createQueue('rotated'), region: REGION, accessKey: 'AKIAREVIEWROTATED01', accessSecret: sqsSecret },
      ...onStores,
    });
    ids.grid = await create({
      key: 'grid',
      destination: { type: 'EventGrid', uri: eventGrid.url, accessKey: eventGrid.accessKey },
      format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
      ...onStores,
    });
  });

  afterAll(async () => {
    for (const { gateway } of later) await gateway.app.close();
    await original?.close();
    await Promise.all([sqs?.stop(), serviceBus?.stop(), eventGrid?.stop()]);
  });

  /** A second gateway on the same database, as after a restart with HERALD_SECRET_KEY changed or unset. */
  async function restartedWith(secretKey: string | undefined): Promise<{ gateway: Gateway; token: string }> {
    const base = defaultConfig();
    const config: HeraldConfig = Object.freeze({
      ...base,
      projects: [P],
      oauth: { ...base.oauth, bootstrapClient: { ...original.bootstrapClient }, tokenRateLimitPerMinute: 0 },
      delivery: parseWorkerConfig(secretKey === undefined ? {} : { HERALD_SECRET_KEY: secretKey }),
    });
    const gateway = await buildGateway(config, { db: original.db, logger: false });
    const token = await tokenFor({ app: gateway.app, bootstrapClient: original.bootstrapClient } as unknown as TestGateway, P, ['manage_subscriptions']);
    const started = { gateway, token };
    later.push(started);
    return started;
  }

  async function read(started: { gateway: Gateway; token: string }, id: string): Promise<Json> {
    const response = await started.gateway.app.inject({ method: 'GET', url: `/${P}/subscriptions/${id}`, headers: bearer(started.token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  }

  it('control: SQS accessSecret and Event Grid accessKey sealed with the old key are answered masked (enc:****)', async () => {
    const rotated = await restartedWith(NEW_KEY);
    expect((await read(rotated, ids.sqs)).destination.accessSecret).toBe('enc:****');
    expect((await read(rotated, ids.grid)).destination.accessKey).toBe('enc:****');
  });

  for (const [label, key] of [
    ['rotated to another key', NEW_KEY],
    ['removed (unset)', undefined],
  ] as const) {
    it(`Service Bus: after HERALD_SECRET_KEY was ${label}, GET answers the sealed connection string as enc:****, nothing the old key could open`, async () => {
      const stored = (
        await original.db.query<{ cs: string }>(
          `SELECT doc->'destination'->>'connectionString' AS cs FROM resources WHERE type_id = 'subscription' AND id = $1`,
          [ids.bus],
        )
      ).rows[0]?.cs;
      expect(stored?.startsWith('enc:v1:')).toBe(true); // sealed at rest, as it should be

      const rotated = await restartedWith(key);
      const shown = (await read(rotated, ids.bus)).destination.connectionString as string;
      // The full key must never be recoverable from a response…
      const recovered = shown.startsWith('enc:v1:') ? new AesGcmSecretBox(OLD_KEY).open(shown) : shown;
      expect(recovered, 'a response lets the holder of the previous key recover the SharedAccessKey').not.toContain(serviceBus.key);
      // …and the response is masked like the other kinds (never the stored value as it is).
      expect(shown).not.toBe(stored);
      expect(shown.length).toBeLessThan(40);
    });
  }

  it('Service Bus: the query, update and delete answers of the rotated gateway carry no ciphertext the old key opens', async () => {
    const rotated = await restartedWith(NEW_KEY);
    const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Json) =>
      rotated.gateway.app.inject({ method, url, headers: bearer(rotated.token), ...(payload === undefined ? {} : { payload }) });
    const answers: string[] = [];
    answers.push((await inject('GET', `/${P}/subscriptions?where=${encodeURIComponent('key="bus"')}`)).body);
    const current = await read(rotated, ids.bus);
    const updated = await inject('POST', `/${P}/subscriptions/${ids.bus}`, { version: current.version, actions: [{ action: 'setKey', key: 'bus-renamed' }] });
    expect(updated.statusCode, updated.body).toBe(200);
    answers.push(updated.body);
    const deleted = await inject('DELETE', `/${P}/subscriptions/${ids.bus}?version=${(updated.json() as Json).version}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    answers.push(deleted.body);
    const opener = new AesGcmSecretBox(OLD_KEY);
    const leaks = answers.filter((body) => {
      const sealed = /enc:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+/.exec(body)?.[0];
      return sealed !== undefined && opener.open(sealed).includes(serviceBus.key);
    });
    expect(leaks, 'answers from which the previous key recovers the SharedAccessKey').toEqual([]);
  });
});
