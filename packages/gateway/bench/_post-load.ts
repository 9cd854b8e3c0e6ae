/**
 * Creates and updates under load: testkit's runHttpLoad sends only GETs, so this is its closed-loop
 * twin for POSTs (same keep-alive agent, same warm-up and percentiles), used for every target alike.
 */
import { Agent, request } from 'node:http';
import { percentile, type LoadResult } from '@herald/testkit';

export interface PostLoadOptions {
  url: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  headers: Record<string, string>;
  /** The JSON body of request number `sequence` (unique keys for creates) sent by connection `worker`. */
  body: (sequence: number, worker: number) => string;
  /** The path of that request (default: the URL's); asked after `body`. */
  path?: (worker: number) => string;
  /** Hears each answer with its body (updates track the version it answers): read only when set. */
  answered?: (worker: number, status: number, body: string) => void;
  expectStatus: number;
}

export async function runPostLoad(options: PostLoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let sequence = 0;
  const once = (worker: number) =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const started = process.hrtime.bigint();
      const body = options.body(sequence++, worker);
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: options.path?.(worker) ?? target.pathname,
          headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          agent,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const { answered } = options;
          if (answered === undefined) res.resume();
          let text = '';
          if (answered !== undefined) res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            answered?.(worker, status, text);
            resolve({ status, ms: elapsed() });
          });
        },
      );
      req.on('error', () => resolve({ status: 0, ms: elapsed() }));
      req.end(body);
    });

  const phase = async (ms: number) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + ms;
    const connection = async (worker: number) => {
      while (Date.now() < deadline) {
        const { status, ms: took } = await once(worker);
        if (status !== options.expectStatus) errors++;
        latencies.push(took);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: options.concurrency }, (_, worker) => connection(worker)));
    return { latencies, errors, elapsedMs: Date.now() - started };
  };

  if (options.warmupMs > 0) await phase(options.warmupMs);
  const { latencies, errors, elapsedMs } = await phase(options.durationMs);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    latencyMs: { p50: percentile(latencies, 0.5), p90: percentile(latencies, 0.9), p99: percentile(latencies, 0.99), max: latencies.at(-1) ?? 0 },
  };
}
