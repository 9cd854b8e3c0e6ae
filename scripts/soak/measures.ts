/**
 * Read-outs the soak runner takes from the running pipeline at the end of a run: a fauxqs queue's
 * depth, one subscription's pending and dropped deliveries, and the workers' attempt counters.
 */
import pg from 'pg';
import type { BlackholeStats } from './proxy.js';

export interface QueueDepth {
  visible: number;
  inFlight: number;
}

/** GetQueueAttributes through the SQS JSON protocol (fauxqs), -1 when it cannot be read. */
export async function queueDepth(sqsEndpoint: string, queueUrl: string): Promise<QueueDepth> {
  try {
    const response = await fetch(sqsEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.GetQueueAttributes' },
      body: JSON.stringify({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    });
    const { Attributes } = (await response.json()) as { Attributes?: Record<string, string> };
    return {
      visible: Number(Attributes?.ApproximateNumberOfMessages ?? -1),
      inFlight: Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? -1),
    };
  } catch {
    return { visible: -1, inFlight: -1 };
  }
}

/** One subscription's deliveries still pending in Herald and those recorded as dropped. */
export async function subscriptionBacklog(databaseUrl: string, subscriptionId: string): Promise<{ pending: number; dropped: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const count = async (table: 'deliveries' | 'dropped_deliveries'): Promise<number> =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE subscription_id = $1`, [subscriptionId])).rows[0]?.n ?? -1);
    return { pending: await count('deliveries'), dropped: await count('dropped_deliveries') };
  } finally {
    await client.end();
  }
}

const ATTEMPT_LINE = /^herald_delivery_attempts_total\{([^}]*)\} (\d+(?:\.\d+)?(?:e\+?\d+)?)$/;

/**
 * `herald_delivery_attempts_total` summed over the workers' /metrics, keyed `subscription outcome`
 * (a worker that cannot be scraped counts nothing).
 */
export async function workerAttempts(ports: Iterable<number>): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const port of ports) {
    let text = '';
    try {
      text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const match = ATTEMPT_LINE.exec(line);
      if (!match) continue;
      const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]));
      const key = `${labels.subscription ?? '?'} ${labels.outcome ?? '?'}`;
      sums.set(key, (sums.get(key) ?? 0) + Number(match[2]));
    }
  }
  return sums;
}

export interface BlackholeOutcome {
  pending: number;
  dropped: number;
  /** The dedup key of each message its fauxqs queue received through the topic, copies included. */
  keysInItsQueue: string[];
  /** The proxy's measure of the sends it never answered (read when the black hole ended). */
  proxy: BlackholeStats | undefined;
  /** `workerAttempts`: herald_delivery_attempts_total by `subscription outcome`. */
  attempts: Map<string, number>;
}

/** The report rows of the `blackhole` scenario's second subscription. */
export function blackholeRows(outcome: BlackholeOutcome, key: string, expected: ReadonlyMap<string, number>): string[][] {
  const arrived = new Set(outcome.keysInItsQueue);
  const missing = [...expected.keys()].filter((dedupKey) => !arrived.has(dedupKey)).length;
  const waited = [...(outcome.proxy?.waitedMs ?? [])].sort((a, b) => a - b);
  const at = (q: number): number => waited[Math.min(waited.length - 1, Math.max(0, Math.ceil(q * waited.length) - 1))] ?? Number.NaN;
  const attempts = [...outcome.attempts]
    .filter(([name]) => name.startsWith(`${key} `))
    .map(([name, count]) => `${name.slice(key.length + 1)} ${count}`)
    .join(', ');
  return [
    [
      `black-holed sends (\`${key}\`): requests the destination never answered, until the worker closed the connection`,
      waited.length === 0
        ? `none measured (${outcome.proxy?.open ?? 0} connections still open)`
        : `${waited.length}, closed after min ${at(0)} ms, p50 ${at(0.5)} ms, max ${at(1)} ms`,
    ],
    [
      'at the end of the black hole: connections accepted during it / still open / of those, waiting for an answer (longest wait)',
      `${outcome.proxy?.accepted ?? 0} / ${outcome.proxy?.open ?? 0} / ${outcome.proxy?.waitingMs.length ?? 0} (${Math.max(0, ...(outcome.proxy?.waitingMs ?? []))} ms)`,
    ],
    [`\`${key}\` attempts by outcome (both workers)`, attempts || 'n/a'],
    [
      `\`${key}\` at the end: pending / dropped / **expected events missing from its queue**`,
      `${outcome.pending} / ${outcome.dropped} / **${missing}** (${expected.size} expected; the queue holds ${outcome.keysInItsQueue.length} messages, ${arrived.size} distinct dedup keys)`,
    ],
  ];
}
