/**
 * Messages/s through the SQS adapter (encode + send in native batches) into fauxqs, next to raw
 * `SendMessageBatch` calls through the SDK in the same run, same batch size (10) and the same
 * number of requests in flight. Target: adapter ≥ 90% of raw.
 *
 *   npx tsx packages/delivery/bench/sqs-adapter.ts [messagesPerRound=10000] [rounds=5]
 */
import { runWithSourceConditions } from './support/with-source-conditions.js';

await runWithSourceConditions(async () => {
  const { startFauxqs } = await import('fauxqs');
  const { SQSClient, SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
  const { createDestinationEnvironment, DestinationPool } = await import('../src/index.js');
  const { messagePayload } = await import('../test/destinations/support/payloads.js');
  const { formatRate, median, perSecond, printTable } = await import('./support/table.js');

  const COUNT = Number(process.argv[2] ?? 10_000);
  const ROUNDS = Number(process.argv[3] ?? 5);
  const IN_FLIGHT = 4;
  const region = 'us-east-1';
  const credentials = { accessKey: 'AKIABENCH', accessSecret: 'bench-secret' };

  const fauxqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  const endpoint = `http://127.0.0.1:${fauxqs.port}`;
  const payloads = Array.from({ length: COUNT }, (_, i) => messagePayload(i));
  const bodies = payloads.map((payload) => JSON.stringify(payload));

  const raw = new SQSClient({
    region,
    endpoint,
    useQueueUrlAsEndpoint: false,
    maxAttempts: 1,
    credentials: { accessKeyId: credentials.accessKey, secretAccessKey: credentials.accessSecret },
  });
  const pool = new DestinationPool(createDestinationEnvironment({ endpoints: { sqs: endpoint }, maxConcurrentRequests: IN_FLIGHT }));

  async function rawRound(queueUrl: string): Promise<number> {
    const start = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < COUNT) {
        const from = next;
        next += 10;
        const entries = bodies.slice(from, from + 10).map((MessageBody, i) => ({ Id: String(i), MessageBody }));
        const response = await raw.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        if ((response.Failed ?? []).length > 0) throw new Error('raw batch failed');
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return perSecond(COUNT, performance.now() - start);
  }

  async function adapterRound(queueUrl: string): Promise<number> {
    const adapter = pool.get({ type: 'SQS', queueUrl, region, ...credentials });
    const context = { subscriptionId: 'bench' };
    const start = performance.now();
    // As the engine would: encode a claimed batch of deliveries, then send it.
    for (let from = 0; from < COUNT; from += 1_000) {
      const encoded = payloads.slice(from, from + 1_000).map((payload) => {
        const result = adapter.encode(payload, { type: 'Platform' }, context);
        if (!result.ok) throw new Error(result.failure.message);
        return result.message;
      });
      const outcomes = await adapter.send(encoded, { timeoutMs: 60_000 });
      if (outcomes.some((outcome) => outcome.status !== 'delivered')) throw new Error('adapter send failed');
    }
    return perSecond(COUNT, performance.now() - start);
  }

  const rawRates: number[] = [];
  const adapterRates: number[] = [];
  // Warm both paths (connections, JIT), then alternate so drift hits both alike.
  await rawRound(fauxqs.createQueue('warm-raw').queueUrl);
  await adapterRound(fauxqs.createQueue('warm-adapter').queueUrl);
  for (let round = 0; round < ROUNDS; round++) {
    rawRates.push(await rawRound(fauxqs.createQueue(`raw-${round}`).queueUrl));
    adapterRates.push(await adapterRound(fauxqs.createQueue(`adapter-${round}`).queueUrl));
    fauxqs.purgeAll();
  }

  const rawMedian = median(rawRates);
  const adapterMedian = median(adapterRates);
  printTable(
    `SQS into fauxqs, ${COUNT.toLocaleString('en-US')} messages × ${ROUNDS} rounds, batches of 10, ${IN_FLIGHT} requests in flight`,
    ['path', 'median msgs/s', 'min', 'max', '% of raw'],
    [
      ['raw SendMessageBatch (SDK)', formatRate(rawMedian), formatRate(Math.min(...rawRates)), formatRate(Math.max(...rawRates)), '100%'],
      [
        'Herald SQS adapter (encode + send)',
        formatRate(adapterMedian),
        formatRate(Math.min(...adapterRates)),
        formatRate(Math.max(...adapterRates)),
        `${Math.round((adapterMedian / rawMedian) * 100)}%`,
      ],
    ],
  );
  await pool.closeAll();
  raw.destroy();
  await fauxqs.stop();
});
