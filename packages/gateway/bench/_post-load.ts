/**
 * Creates under load: testkit's runHttpLoad sends only GETs, so this is its closed-loop twin for
 * POSTs (same keep-alive agent, same warm-up and percentiles), used for every target alike.
 */
import { Agent, request } from 'node:http';
import { percentile, type LoadResult } from '@herald/testkit';

export interface PostLoadOptions {
  url: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  headers: Record<string, string>;
  /** The JSON body of request number `sequence` (unique keys for creates). */
  body: (sequence: number) => string;
  expectStatus: number;
}

export async function runPostLoad(options: PostLoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let sequence = 0;
  const once = () =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const started = process.hrtime.bigint();
      const body = options.body(sequence++);
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: target.pathname,
          headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: elapsed() }));
        },
      );
      req.on('error', () => resolve({ status: 0, ms: elapsed() }));
      req.end(body);
    });

  const phase = async (ms: number) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + ms;
    const worker = async () => {
      while (Date.now() < deadline) {
        const { status, ms: took } = await once();
        if (status !== options.expectStatus) errors++;
        latencies.push(took);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
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
