/**
 * Reproduces the `blackhole` finding in isolation: a send to a destination that accepts connections
 * and never answers must end at its deadline (`timeoutMs`, HERALD_DELIVERY_SEND_TIMEOUT_MS in a
 * worker), with or without a caller's abort signal. Through @herald/delivery's public API (a
 * DestinationPool and sendTestNotification, to SNS behind proxy.ts in black-hole mode), N sends at
 * once, each with a 1 s deadline; after 5 s it prints how many ended and what the destination saw.
 *
 *   node --conditions=@herald/source --import tsx scripts/soak/repro-blackhole.ts [sends] [with-signal|no-signal]
 *
 * With a caller's signal (as a worker passes its stop signal) the adapters' deadline is
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])` (destinations/send-loop.ts, deadlineSignal):
 * on Node 20.20 that timeout signal can be garbage-collected before it fires (nodejs/node#57736),
 * and then the send never ends.
 */
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '@herald/delivery';
import { systemClock } from '@herald/model';
import { SwitchableProxy } from './proxy.js';
import { freePort } from './services.js';

const sends = Number(process.argv[2] ?? 60);
const withSignal = (process.argv[3] ?? 'with-signal') === 'with-signal';
const DEADLINE_MS = 1_000;

const port = await freePort();
// The upstream port is never dialled: the proxy is a black hole from the start.
const proxy = new SwitchableProxy(port, 9);
await proxy.blackhole();
const pool = new DestinationPool(createDestinationEnvironment({ endpoints: { sns: `http://127.0.0.1:${port}` } }));
const destination = { type: 'SNS', topicArn: 'arn:aws:sns:us-east-1:000000000000:blackhole', accessKey: 'x', accessSecret: 'x' } as const;
const stop = new AbortController(); // never aborted, like a running worker's stop signal

const ended = new Map<string, number>();
for (let i = 0; i < sends; i++) {
  void sendTestNotification(
    pool,
    destination,
    { type: 'Platform' },
    {
      projectKey: 'repro',
      subscriptionId: `s-${i}`,
      clock: systemClock,
      timeoutMs: DEADLINE_MS,
      ...(withSignal ? { signal: stop.signal } : {}),
    },
  ).then((outcome) => {
    const code = outcome.status === 'failed' ? outcome.failure.code : outcome.status;
    ended.set(code, (ended.get(code) ?? 0) + 1);
  });
}
await new Promise((resolve) => setTimeout(resolve, 5 * DEADLINE_MS));
const stats = proxy.stats();
const count = [...ended.values()].reduce((a, b) => a + b, 0);
process.stdout.write(
  `${sends} sends ${withSignal ? 'with' : 'without'} a caller's signal, deadline ${DEADLINE_MS} ms, Node ${process.version}: ` +
    `after ${5 * DEADLINE_MS} ms ${count} ended ${JSON.stringify(Object.fromEntries(ended))}; ` +
    `the destination saw ${stats.accepted} connections, ${stats.abandoned} closed by the sender, ` +
    `${stats.waitingMs.length} still waiting (longest ${Math.max(0, ...stats.waitingMs)} ms)\n`,
);
await proxy.close();
process.exit(count === sends ? 0 : 1);
