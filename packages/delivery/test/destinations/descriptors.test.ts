/**
 * A destination kind is declared once, in its folder's descriptor (issue 26, point 1); what the
 * rest of Herald does with a destination — seal, open and mask its secrets, check its format, read
 * its endpoint override, build its adapter — follows from that declaration, for every kind.
 */
import { variablesReadBy, type Destination, type DestinationType, type Format } from '@herald/model';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { DestinationOfType } from '../../src/destinations/descriptor.js';
import { DESTINATIONS, type DestinationRegistry } from '../../src/destinations/registry.js';
import {
  AesGcmSecretBox,
  answerDestination,
  createDestinationEnvironment,
  DestinationPool,
  destinationPoolFor,
  normalizeDestination,
  openDestination,
  parseWorkerConfig,
  sealDestination,
  validateFormat,
} from '../../src/index.js';

const SB_CONNECTION = 'Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abcdEFGHijklMNOP0123456789+/xyz=;EntityPath=orders';

/** One valid draft per kind; the mapped type makes a kind without one a compile error. */
const DRAFTS: { readonly [T in DestinationType]: DestinationOfType<T> } = {
  SQS: {
    type: 'SQS',
    queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q',
    region: 'eu-west-1',
    accessKey: 'AKIA1',
    accessSecret: 'wJalrXUtnFEMI',
    authenticationMode: 'Credentials',
  },
  SNS: { type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:123456789012:t', accessKey: 'AKIA1', accessSecret: 'wJalrXUtnFEMI', authenticationMode: 'Credentials' },
  EventBridge: { type: 'EventBridge', region: 'eu-west-1', accountId: '123456789012' },
  ProviderBServiceBus: { type: 'ProviderBServiceBus', connectionString: SB_CONNECTION },
  EventGrid: { type: 'EventGrid', uri: 'https://topic.westeurope-1.eventgrid.azure.net/api/events', accessKey: 'abcdefgh' },
  ProviderCPubSub: { type: 'ProviderCPubSub', projectId: 'p', topic: 't' },
};

/** The secrets each kind must never store in clear nor answer in full (§2.4). */
const SECRET_VALUES: { readonly [T in DestinationType]: readonly string[] } = {
  SQS: ['wJalrXUtnFEMI'],
  SNS: ['wJalrXUtnFEMI'],
  EventBridge: [],
  ProviderBServiceBus: ['abcdEFGHijklMNOP0123456789+/xyz='],
  EventGrid: ['abcdefgh'],
  ProviderCPubSub: [],
};

const KINDS = Object.keys(DRAFTS) as DestinationType[];
const box = new AesGcmSecretBox('a-secret-key-of-enough-length');
const answerContext = { projectKey: 'shop', subscriptionId: 'sub-1', eventBridgePartnerName: 'herald' };

function fieldsOf(destination: Destination): Readonly<Record<string, unknown>> {
  return { ...destination };
}

describe('destination descriptors', () => {
  it('every draft is valid by its descriptor and normalises to itself', () => {
    for (const kind of KINDS) expect(normalizeDestination(DRAFTS[kind])).toEqual({ ok: true, destination: DRAFTS[kind] });
  });

  it.each(KINDS)('%s: the declared secret fields are sealed at rest, opened for the adapters and masked in answers; nothing else changes', (kind) => {
    const draft = DRAFTS[kind];
    const secretFields = DESTINATIONS[kind].secretFields.map(({ field }) => field as string);
    const sealed = sealDestination(draft, box);
    for (const [field, value] of Object.entries(fieldsOf(draft))) {
      if (secretFields.includes(field)) expect(fieldsOf(sealed)[field]).toMatch(/^enc:v1:/);
      else expect(fieldsOf(sealed)[field]).toEqual(value);
    }
    expect(openDestination(sealed, box)).toEqual(draft);
    const answered = JSON.stringify(answerDestination(draft, answerContext));
    for (const secret of SECRET_VALUES[kind]) {
      expect(JSON.stringify(sealed)).not.toContain(secret);
      expect(answered).not.toContain(secret);
      expect(answered).toContain(`${secret.slice(0, 4)}****`);
    }
  });

  it('an IAM-mode SQS or SNS destination has no secret to seal: stored and opened as it is', () => {
    const iam = { type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:1:t', authenticationMode: 'IAM' } as const;
    expect(sealDestination(iam, box)).toBe(iam);
    expect(openDestination(iam, box)).toBe(iam);
  });

  it.each(KINDS)('%s: a subscription takes exactly the formats its descriptor accepts', (kind) => {
    const formats: Record<Format['type'], Format> = { Platform: { type: 'Platform' }, CloudEvents: { type: 'CloudEvents', cloudEventsVersion: '1.0' } };
    for (const [type, format] of Object.entries(formats)) {
      expect(validateFormat(format, kind).ok).toBe(DESTINATIONS[kind].formats.includes(type as Format['type']));
    }
  });

  it.each(KINDS)("%s: its adapter batches by the descriptor's limits", async (kind) => {
    const pool = new DestinationPool(createDestinationEnvironment());
    expect(pool.get(DRAFTS[kind]).limits).toBe(DESTINATIONS[kind].limits);
    await pool.closeAll();
  });

  it('each endpoint override variable reaches the adapters under the option its descriptor names', () => {
    const overrides = Object.values(DESTINATIONS).flatMap((descriptor) => (descriptor.endpointOverride === undefined ? [] : [descriptor.endpointOverride]));
    const environment = Object.fromEntries(overrides.map(({ variable }, index) => [variable.name, `http://127.0.0.1:${4000 + index}`]));
    const pool = destinationPoolFor(parseWorkerConfig(environment), pino({ level: 'silent' }));
    expect(pool.env.endpoints).toEqual(Object.fromEntries(overrides.map(({ option }, index) => [option, `http://127.0.0.1:${4000 + index}`])));
    expect(destinationPoolFor(parseWorkerConfig({}), pino({ level: 'silent' })).env.endpoints).toEqual({});
  });

  it("every endpoint variable of the configuration table belongs to one destination's descriptor", () => {
    const declared = Object.values(DESTINATIONS).flatMap((descriptor) =>
      descriptor.endpointOverride === undefined ? [] : [descriptor.endpointOverride.variable.name],
    );
    const inTable = variablesReadBy('herald-delivery')
      .map((variable) => variable.name)
      .filter((name) => name.endsWith('_ENDPOINT'));
    expect([...declared].sort()).toEqual([...inTable].sort());
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('accepts each alias a descriptor declares as its kind, and lists the kinds in the registry order', () => {
    for (const kind of KINDS) {
      for (const alias of DESTINATIONS[kind].aliases) {
        expect(normalizeDestination({ ...DRAFTS[kind], type: alias })).toEqual({ ok: true, destination: DRAFTS[kind] });
      }
    }
    expect(normalizeDestination({ type: 'Kafka' })).toEqual({
      ok: false,
      errors: [`destination.type: must be one of ${Object.keys(DESTINATIONS).join(', ')} (got "Kafka").`],
    });
  });

  it('a registry without a kind does not compile', () => {
    const { ProviderCPubSub: _left, ...incomplete } = DESTINATIONS;
    // @ts-expect-error -- ProviderCPubSub has no descriptor: `tsc --noEmit` fails without this line's error
    const registry: DestinationRegistry = incomplete;
    expect(Object.keys(registry)).not.toContain('ProviderCPubSub');
  });
});
