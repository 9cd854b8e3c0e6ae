/**
 * The SQS/SNS peer of the soak run, in its own process: fauxqs (in-memory queues and topics) on an
 * inner port, and in front of it two switchable TCP proxies (proxy.ts) on the ports the delivery
 * workers are given: one for SQS (the measured subscription's queue `soak`), one for SNS (topic
 * `soak-bh`, whose messages fauxqs fans out to queue `soak-bh`; the `blackhole` scenario's second
 * subscription). The consumer talks to the inner port, so switching a proxy changes only what the
 * workers see; the queues and what they hold stay intact.
 *
 * IPC messages from the orchestrator: `{ cmd, target? }` with cmd `down` (refuse connections), `up`
 * (forward again), `blackhole` (accept, never answer), `stats` (the black hole's measures); target
 * `sqs` (default) or `sns`; and `keys`: the dedup key of every message in queue `soak-bh`, copies
 * included (read in place, nothing is received). Each is answered `{ cmd, ok, error?, stats?, keys? }`.
 *
 *   node --import tsx scripts/soak/peer.ts <inner port> <SQS proxy port> <SNS proxy port>
 */
import { deduplicationKey, type DeliveryPayload } from '@herald/model';
import { startFauxqs } from 'fauxqs';
import { SwitchableProxy, type BlackholeStats } from './proxy.js';

const innerPort = Number(process.argv[2]);
const proxies = {
  sqs: new SwitchableProxy(Number(process.argv[3]), innerPort),
  sns: new SwitchableProxy(Number(process.argv[4]), innerPort),
};
type Target = keyof typeof proxies;

const fauxqs = await startFauxqs({ port: innerPort, logger: false, defaultRegion: 'us-east-1' });
const attributes = { MaximumMessageSize: '262144' };
const queueUrl = fauxqs.createQueue('soak', { attributes }).queueUrl;
fauxqs.createQueue('soak-bh', { attributes });
const { topicArn } = fauxqs.createTopic('soak-bh');
fauxqs.subscribe({ topic: 'soak-bh', queue: 'soak-bh', attributes: { RawMessageDelivery: 'true' } });

interface Command {
  cmd: string;
  target?: Target;
  /** `up`: leave the connections a black hole held open and silent instead of cutting them. */
  keepHeld?: boolean;
}

interface Reply {
  stats?: BlackholeStats;
  keys?: string[];
}

/** The dedup keys of what the black-holed subscription's topic delivered to its queue. */
function blackholeQueueKeys(): string[] {
  const queue = fauxqs.inspectQueue('soak-bh');
  if (queue === undefined) return [];
  const { ready, delayed, inflight } = queue.messages;
  return [...ready, ...delayed, ...inflight.map((entry) => entry.message)].map((message) => {
    try {
      return deduplicationKey(JSON.parse(message.body) as DeliveryPayload);
    } catch {
      return '?';
    }
  });
}

async function run(message: Command): Promise<Reply> {
  const proxy = proxies[message.target ?? 'sqs'];
  switch (message.cmd) {
    case 'down':
      await proxy.refuse();
      return {};
    case 'up':
      await proxy.forward({ keepHeld: message.keepHeld === true });
      return {};
    case 'blackhole':
      await proxy.blackhole();
      return {};
    case 'stats':
      return { stats: proxy.stats() };
    case 'keys':
      return { keys: blackholeQueueKeys() };
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
}

process.on('message', (message: Command) => {
  run(message).then(
    (reply) => process.send?.({ cmd: message.cmd, ok: true, ...reply }),
    (error: unknown) => process.send?.({ cmd: message.cmd, ok: false, error: String(error) }),
  );
});

await Promise.all([proxies.sqs.forward(), proxies.sns.forward()]);
process.send?.({ cmd: 'ready', queueUrl, topicArn });
process.on('SIGTERM', () => {
  void Promise.all([proxies.sqs.close(), proxies.sns.close()])
    .then(() => fauxqs.stop())
    .finally(() => process.exit(0));
});
