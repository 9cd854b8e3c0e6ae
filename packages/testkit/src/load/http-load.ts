import { Agent, request } from 'node:http';

export interface LoadOptions {
  url: string;
  /** Requests in flight at once (closed loop: each worker sends the next after the answer). */
  concurrency: number;
  durationMs: number;
  warmupMs?: number;
  headers?: Record<string, string>;
  /** Picks the path of each request (defaults to the URL's path). */
  path?: (sequence: number) => string;
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? 0;
}

/**
 * A small closed-loop HTTP load generator over keep-alive connections, for benchmarks against
 * servers on loopback. Bounded by `durationMs`; stops by itself.
 */
export async function runHttpLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const expected = options.expectStatus ?? 200;
  let sequence = 0;
  const once = () =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const started = process.hrtime.bigint();
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          method: 'GET',
          path: options.path?.(sequence++) ?? target.pathname + target.search,
          headers: options.headers,
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        },
      );
      req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      req.end();
    });

  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + ms;
    const worker = async () => {
      while (Date.now() < deadline) {
        const { status, ms: took } = await once();
        if (!record) continue;
        if (status !== expected) errors++;
        latencies.push(took);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { latencies, errors, elapsedMs: Date.now() - started };
  };

  if ((options.warmupMs ?? 0) > 0) await phase(options.warmupMs ?? 0, false);
  const { latencies, errors, elapsedMs } = await phase(options.durationMs, true);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p90: percentile(latencies, 0.9),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? 0,
    },
  };
}
