/**
 * Parsing throughput on one core: `npx tsx bench/parse.bench.ts`.
 * Targets: >= 200,000/s raw Platform JSON, >= 100,000/s structured CloudEvents.
 */
import os from 'node:os';
import { HTTP } from 'cloudevents';
import { parseDelivery } from '../src/index.js';
import { cloudEventOf, eventBridgeEnvelopeOf, messagePayload, snsEnvelopeOf, updatedPayload } from '../test/support/fixtures.js';
import { formatRate, markdownTable, measureSync, perSecond, type Measurement } from './support.js';

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 300_000);

// Distinct bodies, so no engine cache helps; ~600-900 bytes each, like Herald's deliveries.
const VARIANTS = 1_000;
const messages = Array.from({ length: VARIANTS }, (_, index) => messagePayload(index + 1, { id: `bu-${index}` }));
const platformBodies = messages.map((payload) => JSON.stringify(payload));
const changeBodies = messages.map((_, index) => JSON.stringify(updatedPayload(index + 1, index + 3, { id: `bu-${index}` })));
const cloudEventBodies = messages.map((payload) => JSON.stringify(cloudEventOf(payload)));
const snsBodies = platformBodies.map((body) => snsEnvelopeOf(body));
const eventBridgeBodies = messages.map((payload) => eventBridgeEnvelopeOf(payload));
const platformBuffers = platformBodies.map((body) => Buffer.from(body));
const binaryHeaders = messages.map((payload) => {
  const event = cloudEventOf(payload);
  return { 'ce-specversion': '1.0', 'ce-id': event.id, 'ce-type': event.type, 'ce-source': event.source, 'content-type': 'application/json' };
});

function mustParse(kind: string): void {
  if (kind !== 'delivery') throw new Error(`benchmark input did not parse: ${kind}`);
}

const results: Measurement[] = [
  measureSync('raw Platform JSON message (SQS string body)', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'sqs', body: platformBodies[index % VARIANTS] as string }).kind),
  ),
  measureSync('raw Platform JSON message (Buffer body)', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'service-bus', body: platformBuffers[index % VARIANTS] as Buffer }).kind),
  ),
  measureSync('raw Platform JSON change (ResourceUpdated)', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'sqs', body: changeBodies[index % VARIANTS] as string }).kind),
  ),
  measureSync('structured CloudEvent (SQS string body)', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'sqs', body: cloudEventBodies[index % VARIANTS] as string }).kind),
  ),
  measureSync('SNS envelope → Platform JSON', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'sqs', body: snsBodies[index % VARIANTS] as string }).kind),
  ),
  measureSync('EventBridge envelope → Platform JSON', OPERATIONS, (index) =>
    mustParse(parseDelivery({ source: 'sqs', body: eventBridgeBodies[index % VARIANTS] as string }).kind),
  ),
  measureSync('binary-mode CloudEvent over HTTP (cloudevents package)', OPERATIONS / 10, (index) =>
    mustParse(
      parseDelivery({ source: 'http', headers: binaryHeaders[index % VARIANTS] as Record<string, string>, body: platformBodies[index % VARIANTS] as string })
        .kind,
    ),
  ),
  measureSync('reference: cloudevents HTTP.toEvent, structured (no payload checks)', OPERATIONS / 10, (index) => {
    HTTP.toEvent({ headers: { 'content-type': 'application/cloudevents+json' }, body: cloudEventBodies[index % VARIANTS] as string });
  }),
  measureSync('reference: JSON.parse alone of the Platform JSON', OPERATIONS, (index) => {
    JSON.parse(platformBodies[index % VARIANTS] as string);
  }),
];

console.log(`\n### Parsing, one core (${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`);
console.log(
  markdownTable(
    ['input', 'deliveries/s', 'µs each'],
    results.map((result) => [result.name, formatRate(perSecond(result)), (1e6 / perSecond(result)).toFixed(2)]),
  ),
);
