/**
 * The delivery engine end to end on PostgreSQL: two `herald-delivery` worker processes, one SQS
 * peer (fauxqs, in this process).
 *
 * 1. Raw ceiling: `SendMessageBatch` (10 entries, 8 requests in flight) straight into the peer.
 * 2. Throughput: a backlog of N change notifications committed to the outbox in one transaction;
 *    time until all N arrived at the peer (routing + leasing + encoding + sending + recording).
 *    Target: ≥ 60 % of the raw ceiling (issue 11); issue 30 asks ≥ 90 %.
 * 3. Latency: resource writes through the DocumentStore at R/s for S seconds (engine-writer.ts, in
 *    its own process, after a warm-up of its own); per event, from the write's commit to its arrival
 *    at the peer. Target: p99 < 50 ms at 500/s (issue 11); issue 30 asks < 25 ms.
 *
 *   npx tsx packages/delivery/bench/engine-throughput.ts [backlog=20000] [rate=500] [seconds=10]
 *
 * HERALD_DELIVERY_* variables in the environment are passed to the workers.
 * Uses DATABASE_URL when it points at PostgreSQL, else starts a throwaway cluster.
 */
import type { Subscription } from '@herald/model';
import { runWithSourceConditions } from './support/with-source-conditions.js';

await runWithSourceConditions(async () => {
  const { randomUUID } = await import('node:crypto');
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const WRITER = fileURLToPath(new URL('./engine-writer.ts', import.meta.url));
  const { startFauxqs } = await import('fauxqs');
  const { SQSClient, SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
  const { DocumentStore, openDatabase, ProjectStore } = await import('@herald/store');
  const { cpuSince, cpuSnapshot, createIsolatedDatabase, ownCpu, processesCpu, startPostgres } = await import('@herald/testkit');
  const { spawnWorker } = await import('../test/worker/worker-process.js');
  const { formatRate, perSecond, printTable } = await import('./support/table.js');

  const BACKLOG = Number(process.argv[2] ?? 20_000);
  const RATE = Number(process.argv[3] ?? 500);
  const SECONDS = Number(process.argv[4] ?? 10);
  /** engine-writer.ts's unmeasured warm-up before its SECONDS. */
  const WRITER_WARMUP_SECONDS = 2;
  const RAW_COUNT = 20_000;
  const RAW_IN_FLIGHT = 8;
  const region = 'us-east-1';

  const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
  const cluster = serverUrl === undefined ? await startPostgres() : undefined;
  const isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
  const db = await openDatabase(isolated.url);
  const fauxqs = await startFauxqs({
    port: 0,
    host: '127.0.0.1',
    logger: false,
    messageSpies: { bufferSize: RAW_COUNT + BACKLOG + RATE * (SECONDS + WRITER_WARMUP_SECONDS) + 1_000 },
  });
  const endpoint = `http://127.0.0.1:${fauxqs.port}`;

  type Spied = ReturnType<typeof fauxqs.spy.getAllMessages>[number];
  const resourceIdOf = (message: Spied): string | undefined =>
    message.service === 'sqs' && message.queueName === 'engine' && message.status === 'published'
      ? (JSON.parse(message.body) as { resource?: { id?: string } }).resource?.id
      : undefined;
  /** Resolves when `ids` distinct events (of those given) have arrived at the peer's `engine` queue. */
  const arrivalOf = (ids: ReadonlySet<string>): Promise<unknown> => {
    const seen = new Set<string>();
    return fauxqs.spy.waitForMessage(
      (message) => {
        const id = resourceIdOf(message as Spied);
        if (id !== undefined && ids.has(id)) seen.add(id);
        return seen.size >= ids.size;
      },
      undefined,
      600_000,
    );
  };

  const workers: ReturnType<typeof spawnWorker>[] = [];
  try {
    // 1. Raw ceiling of the peer.
    const rawQueue = fauxqs.createQueue('raw').queueUrl;
    const raw = new SQSClient({
      region,
      endpoint,
      useQueueUrlAsEndpoint: false,
      maxAttempts: 1,
      credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    });
    const body = JSON.stringify({
      notificationType: 'ResourceCreated',
      projectKey: 'bench',
      resource: { typeId: 'store', id: randomUUID() },
      version: 1,
      modifiedAt: new Date().toISOString(),
    });
    const rawStart = performance.now();
    const rawCpuStart = cpuSnapshot({ client: ownCpu });
    let sent = 0;
    await Promise.all(
      Array.from({ length: RAW_IN_FLIGHT }, async () => {
        while (sent < RAW_COUNT) {
          sent += 10;
          const entries = Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: body }));
          await raw.send(new SendMessageBatchCommand({ QueueUrl: rawQueue, Entries: entries }));
        }
      }),
    );
    const rawRate = perSecond(RAW_COUNT, performance.now() - rawStart);
    const rawCpuMs = cpuSince({ client: ownCpu }, rawCpuStart).client;
    raw.destroy();

    // Project, subscription, workers.
    const projectKey = 'bench';
    await new ProjectStore(db).ensure(projectKey);
    const documents = new DocumentStore(db);
    const queueUrl = fauxqs.createQueue('engine', { attributes: { MaximumMessageSize: '262144' } }).queueUrl;
    await documents.create<Subscription>({ projectKey }, 'subscription', {
      destination: { type: 'SQS', queueUrl, accessKey: 'bench', accessSecret: 'bench', region },
      messages: [],
      changes: [{ resourceTypeId: 'store' }],
      events: [],
      format: { type: 'Platform' },
      status: 'Healthy',
    });
    const env = {
      DATABASE_URL: isolated.url,
      HERALD_SQS_ENDPOINT: endpoint,
      // Worker settings can be tried from the command line: HERALD_DELIVERY_CONCURRENCY=8 npx tsx …
      ...Object.fromEntries(
        Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('HERALD_DELIVERY_') && entry[1] !== undefined),
      ),
    };
    // Profiling the workers: BENCH_WORKER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
    const nodeFlags = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
    workers.push(
      spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'bench-1' }, nodeFlags),
      spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'bench-2' }, nodeFlags),
    );
    await Promise.all(workers.map((worker) => waitUntilHealthy(worker)));

    // 2. Throughput: a committed backlog, drained by both workers.
    const rows = Array.from({ length: BACKLOG }, () => {
      const id = randomUUID();
      return {
        event_id: randomUUID(),
        payload: { notificationType: 'ResourceCreated', projectKey, resource: { typeId: 'store', id }, version: 1, modifiedAt: new Date().toISOString() },
      };
    });
    await db.transaction(async (tx) => {
      for (let from = 0; from < rows.length; from += 2_000) {
        await tx.query(
          `INSERT INTO outbox (project_key, event_id, kind, resource_type_id, payload)
           SELECT $1, r.event_id, 'change', 'store', r.payload FROM jsonb_to_recordset($2::jsonb) AS r(event_id text, payload jsonb)`,
          [projectKey, JSON.stringify(rows.slice(from, from + 2_000))],
          { appendsOutbox: true },
        );
      }
    });
    const backendPids = (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows.map((r) => r.pid);
    const workerPids = workers.map((worker) => worker.pid);
    // A backend that ends meanwhile (an idle pool connection closed) drops out of the sums.
    const drainCpu = { workers: processesCpu(workerPids), postgres: processesCpu(backendPids), peer: ownCpu };
    const before = cpuSnapshot(drainCpu);
    const drainStart = performance.now();
    await arrivalOf(new Set(rows.map((row) => row.payload.resource.id)));
    const engineRate = perSecond(BACKLOG, performance.now() - drainStart);
    // CPU per 1,000 deliveries, by process: a figure the machine's other load does not distort.
    const perThousand = (ms: number, count: number): string => ((ms * 1000) / count).toFixed(0);
    const engineCpu = cpuSince(drainCpu, before);

    // 3. Latency at RATE events/s through real resource writes. First every backlog delivery must
    // be in the workers' histograms, or their latency would count in this phase's.
    let histogramBefore = await latencyBuckets();
    while ((histogramBefore.at(-1)?.[1] ?? 0) < BACKLOG) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      histogramBefore = await latencyBuckets();
    }
    const total = RATE * SECONDS;
    // The workers' and their backends' CPU while paced: what a steady rate costs per event (the
    // writer's backend is not among these: it connects after this list was read).
    const pacedBackendPids = (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows.map((r) => r.pid);
    const pacedSources = { workers: processesCpu(workerPids), postgres: processesCpu(pacedBackendPids) };
    let pacedBefore = cpuSnapshot(pacedSources);
    const writer = spawn(
      process.execPath,
      ['--conditions=@herald/source', '--import', 'tsx', WRITER, isolated.url, projectKey, String(RATE), String(SECONDS), String(WRITER_WARMUP_SECONDS)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    // The writer's warm-up (engine-writer.ts) is neither timed nor charged: CPU is counted from its mark.
    writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!output.includes('measuring\n') && (output + chunk).includes('measuring\n')) {
        pacedBefore = cpuSnapshot(pacedSources);
      }
      output += chunk;
    });
    const writerExit = await new Promise<number | null>((resolve) => writer.once('exit', resolve));
    if (writerExit !== 0) throw new Error(`writer exited with ${writerExit}`);
    const committedAt = new Map<string, number>();
    let achievedRate = 0;
    for (const line of output.trim().split('\n')) {
      const [first, second] = line.split(' ');
      if (first === 'done') achievedRate = Number(second);
      else if (first !== 'measuring' && first !== undefined && second !== undefined) committedAt.set(first, Number(second));
    }
    if (committedAt.size !== total) throw new Error(`writer reported ${committedAt.size} of ${total} writes`);
    await arrivalOf(new Set(committedAt.keys()));
    const pacedCpu = cpuSince(pacedSources, pacedBefore);
    // The spy stamps each message with Date.now() as the peer accepts it (the ack follows).
    const arrivedAt = new Map<string, number>();
    for (const message of fauxqs.spy.getAllMessages()) {
      const id = resourceIdOf(message);
      if (id !== undefined && committedAt.has(id) && !arrivedAt.has(id) && 'timestamp' in message) arrivedAt.set(id, message.timestamp);
    }
    const latencies = [...committedAt].map(([id, at]) => Math.max(0, (arrivedAt.get(id) ?? Number.NaN) - at)).sort((a, b) => a - b);
    const quantile = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
    // The workers' own measure (§ outbox committed_at → destination ack), as histogram bucket bounds.
    const histogram = diffBuckets(await latencyBuckets(), histogramBefore);
    const bucketQuantile = (q: number): string => {
      const total = histogram.at(-1)?.[1] ?? 0;
      const bound = histogram.find(([, cumulative]) => cumulative >= q * total)?.[0];
      return bound === undefined ? 'n/a' : `≤ ${bound === Number.POSITIVE_INFINITY ? '∞' : (bound * 1000).toFixed(0)} ms`;
    };

    printTable(
      'Delivery engine on PostgreSQL, 2 worker processes → SQS peer (fauxqs)',
      ['measure', 'result', 'target'],
      [
        ['raw SendMessageBatch ceiling (10/batch, 8 in flight)', `${formatRate(rawRate)} msg/s`, ''],
        [
          `engine throughput (backlog of ${formatRate(BACKLOG)})`,
          `${formatRate(engineRate)} deliveries/s (${Math.round((engineRate / rawRate) * 100)} % of raw)`,
          '≥ 60 % of raw (issue 30: ≥ 90 %)',
        ],
        ['CPU per 1,000: raw (SDK client + peer, one process)', `${perThousand(rawCpuMs, RAW_COUNT)} ms`, ''],
        [
          'CPU per 1,000: engine (workers + PostgreSQL backends + peer process)',
          `${perThousand(engineCpu.workers, BACKLOG)} + ${perThousand(engineCpu.postgres, BACKLOG)} + ${perThousand(engineCpu.peer, BACKLOG)} ms`,
          '',
        ],
        [
          `latency at ${RATE}/s for ${SECONDS} s (achieved ${formatRate(achievedRate)}/s), commit → arrival`,
          `p50 ${quantile(0.5).toFixed(1)} ms, p99 ${quantile(0.99).toFixed(1)} ms, max ${quantile(1).toFixed(1)} ms`,
          'p99 < 50 ms (issue 30: < 25 ms)',
        ],
        [
          `CPU per 1,000 at ${RATE}/s: workers + their PostgreSQL backends`,
          `${perThousand(pacedCpu.workers, total)} + ${perThousand(pacedCpu.postgres, total)} ms`,
          '',
        ],
        ["same, workers' herald_delivery_latency_seconds (committed_at → ack)", `p50 ${bucketQuantile(0.5)}, p99 ${bucketQuantile(0.99)}`, 'p99 < 50 ms'],
      ],
    );
  } finally {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await fauxqs.stop();
    await db.close();
    await isolated.drop();
    await cluster?.stop();
  }

  /** Cumulative latency bucket counts summed over both workers' /metrics: [upper bound s, count]. */
  async function latencyBuckets(): Promise<[number, number][]> {
    const sums = new Map<number, number>();
    for (const worker of workers) {
      const { port } = await worker.ready;
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      for (const match of text.matchAll(/^herald_delivery_latency_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\d+)$/gm)) {
        const bound = match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]);
        sums.set(bound, (sums.get(bound) ?? 0) + Number(match[2]));
      }
    }
    return [...sums].sort(([a], [b]) => a - b);
  }

  function diffBuckets(after: [number, number][], before: [number, number][]): [number, number][] {
    const earlier = new Map(before);
    return after.map(([bound, count]) => [bound, count - (earlier.get(bound) ?? 0)]);
  }

  async function waitUntilHealthy(worker: ReturnType<typeof spawnWorker>): Promise<void> {
    const { port } = await worker.ready;
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (response.status !== 200) throw new Error(`worker unhealthy: ${response.status}`);
  }
});
