/**
 * Recovery after a destination outage (issue 25, "Recovery drains at full speed"), on PostgreSQL
 * with two `herald-delivery` worker processes sending to an SQS peer (fauxqs, in this process)
 * through a TCP relay that can be taken down (test/engine/support.ts `OutageRelay`).
 *
 * Each round, in the same run:
 * 1. Fresh: N change notifications committed to the outbox in one transaction; time until all N
 *    arrived at the peer (routing + leasing + sending + recording, the destination up).
 * 2. Recovery: the relay goes down, N more are committed, and it stays down for the outage (60 s
 *    of real time: the workers use the system clock, so the deliveries' backoffs are those of a
 *    real minute-long outage, every retry of it failed for real). Then it comes up again; time
 *    from its return until all N arrived at the peer and none is pending.
 * Target: recovery ≤ 2 × fresh (the median of the rounds' ratios).
 *
 * No other traffic: what first proves the destination accepts again is the first of the backlog's
 * retries that comes due (jitter spreads them). With traffic, the first new event does it sooner.
 *
 *   npx tsx packages/delivery/bench/recovery.ts [backlog=2500] [outageSeconds=60] [rounds=3]
 *
 * HERALD_DELIVERY_* variables in the environment are passed to the workers.
 * Uses DATABASE_URL when it points at PostgreSQL, else starts a throwaway cluster.
 */
import type { Subscription } from '@herald/model';
import { runWithSourceConditions } from './support/with-source-conditions.js';

await runWithSourceConditions(async () => {
  const { randomUUID } = await import('node:crypto');
  const { loadavg } = await import('node:os');
  const { startFauxqs } = await import('fauxqs');
  const { DocumentStore, openDatabase, ProjectStore } = await import('@herald/store');
  const { createIsolatedDatabase, startPostgres } = await import('@herald/testkit');
  const { spawnWorker } = await import('../test/worker/worker-process.js');
  const { OutageRelay } = await import('../test/engine/support.js');
  const { formatRate, median, printTable } = await import('./support/table.js');

  const BACKLOG = Number(process.argv[2] ?? 2_500);
  const OUTAGE_MS = Number(process.argv[3] ?? 60) * 1000;
  const ROUNDS = Number(process.argv[4] ?? 3);
  const region = 'us-east-1';
  const projectKey = 'bench';

  const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
  const cluster = serverUrl === undefined ? await startPostgres() : undefined;
  const isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
  const db = await openDatabase(isolated.url);
  const fauxqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false, messageSpies: { bufferSize: 2 * BACKLOG * ROUNDS + 1_000 } });
  const relay = await OutageRelay.start(`http://127.0.0.1:${fauxqs.port}`);

  type Spied = ReturnType<typeof fauxqs.spy.getAllMessages>[number];
  const resourceIdOf = (message: Spied): string | undefined =>
    message.service === 'sqs' && message.queueName === 'recovery' && message.status === 'published'
      ? (JSON.parse(message.body) as { resource?: { id?: string } }).resource?.id
      : undefined;
  /**
   * Resolves when every one of `ids` has arrived at the peer's `recovery` queue, with the
   * `performance.now()` of the first arrival.
   */
  const arrivalOf = async (ids: ReadonlySet<string>): Promise<{ firstAt: number }> => {
    const seen = new Set<string>();
    let firstAt = Number.NaN;
    await fauxqs.spy.waitForMessage(
      (message) => {
        const id = resourceIdOf(message as Spied);
        if (id !== undefined && ids.has(id)) {
          if (seen.size === 0) firstAt = performance.now();
          seen.add(id);
        }
        return seen.size >= ids.size;
      },
      undefined,
      900_000,
    );
    return { firstAt };
  };

  /** Commits `count` change notifications to the outbox in one transaction; answers their resource ids. */
  async function commitEvents(count: number): Promise<Set<string>> {
    const rows = Array.from({ length: count }, () => ({
      event_id: randomUUID(),
      payload: {
        notificationType: 'ResourceCreated',
        projectKey,
        resource: { typeId: 'store', id: randomUUID() },
        version: 1,
        modifiedAt: new Date().toISOString(),
      },
    }));
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO outbox (project_key, event_id, kind, resource_type_id, payload)
         SELECT $1, r.event_id, 'change', 'store', r.payload FROM jsonb_to_recordset($2::jsonb) AS r(event_id text, payload jsonb)`,
        [projectKey, JSON.stringify(rows)],
        { appendsOutbox: true },
      );
    });
    return new Set(rows.map((row) => row.payload.resource.id));
  }

  /** The pending deliveries: how many, how many failed, and how far their retries are (leased ones aside: their due time is the lease's end). */
  async function backlogState(): Promise<{ pending: number; failed: number; attempts: number; dueInMinS: number; dueInMedianS: number; dueInMaxS: number }> {
    const result = await db.query<{
      pending: number;
      failed: number;
      attempts: number | null;
      due_min: number | null;
      due_median: number | null;
      due_max: number | null;
    }>(
      `SELECT count(*)::int AS pending, count(*) FILTER (WHERE attempts > 0)::int AS failed,
         percentile_disc(0.5) WITHIN GROUP (ORDER BY attempts) AS attempts,
         extract(epoch FROM min(due_at) FILTER (WHERE lease_owner IS NULL) - now())::float8 AS due_min,
         extract(epoch FROM percentile_disc(0.5) WITHIN GROUP (ORDER BY due_at) FILTER (WHERE lease_owner IS NULL) - now())::float8 AS due_median,
         extract(epoch FROM max(due_at) FILTER (WHERE lease_owner IS NULL) - now())::float8 AS due_max
       FROM deliveries`,
    );
    const row = result.rows[0]!;
    return {
      pending: row.pending,
      failed: row.failed,
      attempts: row.attempts ?? 0,
      dueInMinS: row.due_min ?? 0,
      dueInMedianS: row.due_median ?? 0,
      dueInMaxS: row.due_max ?? 0,
    };
  }

  async function untilNothingPending(): Promise<void> {
    while ((await backlogState()).pending > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  const workers: ReturnType<typeof spawnWorker>[] = [];
  try {
    await new ProjectStore(db).ensure(projectKey);
    const queueUrl = fauxqs.createQueue('recovery', { attributes: { MaximumMessageSize: '262144' } }).queueUrl;
    await new DocumentStore(db).create<Subscription>({ projectKey }, 'subscription', {
      destination: { type: 'SQS', queueUrl, accessKey: 'bench', accessSecret: 'bench', region },
      messages: [],
      changes: [{ resourceTypeId: 'store' }],
      events: [],
      format: { type: 'Platform' },
      status: 'Healthy',
    });
    const env = {
      DATABASE_URL: isolated.url,
      HERALD_SQS_ENDPOINT: relay.endpoint,
      ...Object.fromEntries(
        Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('HERALD_DELIVERY_') && entry[1] !== undefined),
      ),
    };
    workers.push(spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'bench-1' }), spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'bench-2' }));
    await Promise.all(workers.map((worker) => worker.ready));
    // Warm-up: connections, the subscription cache, the SQS clients.
    await arrivalOf(await commitEvents(100));
    await untilNothingPending();

    const rounds: { freshMs: number; firstMs: number; recoveryMs: number; atReturn: Awaited<ReturnType<typeof backlogState>> }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const freshStart = performance.now();
      await arrivalOf(await commitEvents(BACKLOG));
      const freshMs = performance.now() - freshStart;
      await untilNothingPending();

      await relay.down();
      const outageStart = performance.now();
      const backlog = await commitEvents(BACKLOG);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (performance.now() - outageStart)));
      const atReturn = await backlogState();
      if (atReturn.failed !== BACKLOG) throw new Error(`only ${atReturn.failed} of ${BACKLOG} deliveries failed during the outage`);
      await relay.up();
      const returnedAt = performance.now();
      const { firstAt } = await arrivalOf(backlog);
      await untilNothingPending();
      rounds.push({ freshMs, firstMs: firstAt - returnedAt, recoveryMs: performance.now() - returnedAt, atReturn });
      console.error(`[recovery] round ${round + 1}: fresh ${freshMs.toFixed(0)} ms, recovery ${(performance.now() - returnedAt).toFixed(0)} ms`);
    }

    const ms = (value: number): string => `${formatRate(Math.round(value))} ms`;
    const ratios = rounds.map((r) => r.recoveryMs / r.freshMs);
    const ratio = median(ratios);
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(', ');
    printTable(
      `Recovery after a ${OUTAGE_MS / 1000} s destination outage, backlog of ${formatRate(BACKLOG)}: PostgreSQL, 2 worker processes → SQS peer (fauxqs) through a relay (load average at the end ${load})`,
      [
        'round',
        `fresh: ${formatRate(BACKLOG)} sent, destination up (commit → last arrival)`,
        'backlog at the return: failed attempts (median); next retries due in (soonest, median, latest)',
        "destination's return → first of the backlog delivered",
        "recovery: destination's return → backlog empty",
        'recovery ÷ fresh (target ≤ 2)',
      ],
      [
        ...rounds.map((r, index) => [
          String(index + 1),
          ms(r.freshMs),
          `${r.atReturn.attempts}; ${r.atReturn.dueInMinS.toFixed(1)} s, ${r.atReturn.dueInMedianS.toFixed(1)} s, ${r.atReturn.dueInMaxS.toFixed(1)} s`,
          ms(r.firstMs),
          ms(r.recoveryMs),
          (ratios[index] ?? Number.NaN).toFixed(2),
        ]),
        [
          'median',
          ms(median(rounds.map((r) => r.freshMs))),
          '',
          ms(median(rounds.map((r) => r.firstMs))),
          ms(median(rounds.map((r) => r.recoveryMs))),
          `${ratio.toFixed(2)} (${ratio <= 2 ? 'met' : 'not met'})`,
        ],
      ],
    );
  } finally {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await relay.down();
    await fauxqs.stop();
    await db.close();
    await isolated.drop();
    await cluster?.stop();
  }
});
