/**
 * The format step alone, on one core: Platform and CloudEvents formatting (build, serialise once,
 * measure with Buffer.byteLength), and the full SQS encode (format + bind + size check).
 * Targets: ≥ 100,000 Platform payloads/s and ≥ 50,000 CloudEvents/s.
 *
 *   npx tsx packages/delivery/bench/format.ts
 */
import { runWithSourceConditions } from './support/with-source-conditions.js';

await runWithSourceConditions(async () => {
  const { formatCloudEvents, formatPlatform } = await import('../src/format/formatted.js');
  const { encodeSqs } = await import('../src/destinations/sqs/encode.js');
  const { changePayloads, messagePayload } = await import('../test/destinations/support/payloads.js');
  const { formatRate, median, perSecond, printTable } = await import('./support/table.js');

  const COUNT = 100_000;
  const ROUNDS = 5;
  const payloads = Array.from({ length: COUNT }, (_, i) => (i % 4 === 0 ? messagePayload(i) : changePayloads(i)[i % 3]!));
  const options = { cloudEventsTypePrefix: 'com.commercetools' };
  const cloudEvents = { type: 'CloudEvents', cloudEventsVersion: '1.0' } as const;
  const platform = { type: 'Platform' } as const;

  let sink = 0;
  const cases: [string, (i: number) => void][] = [
    [
      'Platform format (build + JSON + byteLength)',
      (i) => {
        sink += Buffer.byteLength(formatPlatform(payloads[i]!).json);
      },
    ],
    [
      'CloudEvents format (new CloudEvent, validated + JSON + byteLength)',
      (i) => {
        sink += Buffer.byteLength(formatCloudEvents(payloads[i]!, options).json);
      },
    ],
    [
      'SQS encode, Platform (format + bind + limit check)',
      (i) => {
        const r = encodeSqs(payloads[i]!, platform, options);
        if (r.ok) sink += r.message.sizeBytes;
      },
    ],
    [
      'SQS encode, CloudEvents',
      (i) => {
        const r = encodeSqs(payloads[i]!, cloudEvents, options);
        if (r.ok) sink += r.message.sizeBytes;
      },
    ],
  ];

  const rows: string[][] = [];
  for (const [name, step] of cases) {
    for (let i = 0; i < 10_000; i++) step(i); // warm-up
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      for (let i = 0; i < COUNT; i++) step(i);
      rates.push(perSecond(COUNT, performance.now() - start));
    }
    rows.push([name, formatRate(median(rates)), formatRate(Math.min(...rates)), formatRate(Math.max(...rates))]);
  }
  printTable(
    `Format step, ${COUNT.toLocaleString('en-US')} payloads × ${ROUNDS} rounds (¼ messages, ¾ changes)`,
    ['step', 'median /s', 'min /s', 'max /s'],
    rows,
  );
  if (sink < 0) console.log(sink);
});
