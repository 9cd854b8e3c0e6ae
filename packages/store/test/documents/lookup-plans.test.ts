import type { BaseResource } from '@herald/model';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore, openDatabase, type Database, type Queryable, type QueryOptions } from '../../src/index.js';

/**
 * The plans of the store's statements that address one resource, on a table PostgreSQL has no
 * statistics for, and then on a project that did not exist at the last ANALYZE. In both cases the
 * planner underestimates how many rows belong to the project and type, and used to read whole
 * projects and types through resources_modified_idx (or, for customers, through
 * resources_customer_email_idx). The lookups must use their own indexes (migration 005).
 *
 * These are PostgreSQL's plans, so the test runs on a real server: the one DATABASE_URL names, or a
 * throwaway cluster. It runs on PGlite too, which never has statistics (it has no autovacuum).
 */
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRunPostgres = serverUrl !== undefined || postgresAvailable();
const SKIP_REASON = 'no PostgreSQL server: set DATABASE_URL or install initdb/pg_ctl';
if (!canRunPostgres) console.warn(`[skip] lookup plans on PostgreSQL: ${SKIP_REASON}`);

interface Thing extends BaseResource {
  key?: string;
  email?: string;
  name: string;
}

interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** `db`, recording every statement run through it (inside transactions too). */
function recording(db: Database, seen: Statement[]): Database {
  const wrap = (target: Queryable): Queryable => ({
    query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      seen.push({ sql, params });
      return target.query<Row>(sql, params, options);
    },
    exec: (sql) => target.exec(sql),
  });
  return { ...wrap(db), driver: db.driver, transaction: (work) => db.transaction((tx) => work(wrap(tx))), close: () => db.close() };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/**
 * How a plan reads `resources`: the index name of an index scan whose condition includes the id or
 * key (one probe), else the node type, index and condition (a scan of the project and type).
 */
function resourceScans(node: PlanNode): string[] {
  const own: string[] = [];
  if (node['Relation Name'] === 'resources' && node['Node Type'] !== 'ModifyTable') {
    const condition = node['Index Cond'] ?? '';
    const probe = node['Node Type'] === 'Index Scan' && /\b(id|key)\b/.test(condition.replace(/project_key|type_id/g, ''));
    own.push(probe ? (node['Index Name'] ?? '?') : `${node['Node Type']} ${node['Index Name'] ?? ''} ${condition}`);
  }
  return [...own, ...(node.Plans ?? []).flatMap(resourceScans)];
}

const targets = [
  { name: 'PGlite', run: true },
  { name: canRunPostgres ? 'PostgreSQL' : `PostgreSQL (SKIPPED: ${SKIP_REASON})`, run: canRunPostgres },
];

describe.each(targets)('lookups of one resource on $name use their own index, with or without statistics', ({ name, run }) => {
  const isPostgres = name.startsWith('PostgreSQL');
  let cluster: RunningService | undefined;
  let drop: (() => Promise<void>) | undefined;
  let db: Database;
  let store: DocumentStore;

  beforeAll(async () => {
    if (!run) return;
    let url = 'pglite://memory';
    if (isPostgres) {
      cluster = serverUrl === undefined ? await startPostgres() : undefined;
      const isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
      drop = isolated.drop;
      url = isolated.url;
    }
    db = await openDatabase(url);
    // Only this test's ANALYZE may give the planner statistics (PGlite has no autovacuum anyway).
    await db.query('ALTER TABLE resources SET (autovacuum_enabled = false)');
    store = new DocumentStore(db);
  });

  afterAll(async () => {
    await db?.close();
    await drop?.();
    await cluster?.stop();
  });

  /** Creates stores and customers (which have a partial index of their own) in one project. */
  async function populate(projectKey: string, stores: number, customers: number): Promise<{ store: Thing; customer: Thing }> {
    const created: Thing[] = [];
    const drafts = [
      ...Array.from({ length: stores }, (_, i) => ({ typeId: 'store', fields: { key: `store-${i}`, name: `s${i}` } })),
      ...Array.from({ length: customers }, (_, i) => ({ typeId: 'customer', fields: { key: `c-${i}`, email: `c${i}@example.com`, name: `c${i}` } })),
    ];
    for (let i = 0; i < drafts.length; i += 25) {
      const batch = drafts.slice(i, i + 25).map(({ typeId, fields }) => store.create<Thing>({ projectKey }, typeId, fields));
      created.push(...(await Promise.all(batch)));
    }
    return { store: created[Math.floor(stores / 2)]!, customer: created[stores + Math.floor(customers / 2)]! };
  }

  /** The index each statement `work` runs on `resources` reads it through, in order. */
  async function plansOf(work: (recorded: DocumentStore) => Promise<unknown>): Promise<string[]> {
    const seen: Statement[] = [];
    await work(new DocumentStore(recording(db, seen)));
    const lookups = seen.filter(({ sql }) => /\bresources\b/.test(sql) && !/INSERT INTO resources/.test(sql));
    const plans: string[] = [];
    for (const { sql, params } of lookups) {
      const result = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      const raw = result.rows[0]?.['QUERY PLAN'];
      const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      plans.push(resourceScans(explained.Plan).join(' + '));
    }
    return plans;
  }

  const byId = 'resources_id_lookup_idx';
  const byKey = 'resources_key_lookup_idx';
  const rename = (doc: Thing) => ({ doc: { ...doc, name: `${doc.name}!` } });

  it.runIf(run)('on a table that was never analyzed', { timeout: 120_000 }, async () => {
    const { store: aStore, customer } = await populate('p1', 600, 400);
    const statistics = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'resources'`);
    expect(statistics.rows[0]?.n).toBe(0);
    const ctx = { projectKey: 'p1' };

    expect(await plansOf((s) => s.get('p1', 'store', { id: aStore.id }))).toEqual([byId]);
    expect(await plansOf((s) => s.get('p1', 'store', { key: aStore.key! }))).toEqual([byKey]);
    expect(await plansOf((s) => s.get('p1', 'customer', { id: customer.id }))).toEqual([byId]);
    expect(await plansOf((s) => s.get('p1', 'customer', { key: customer.key! }))).toEqual([byKey]);
    expect(await plansOf((s) => s.getMany('p1', 'store', [aStore.id, customer.id]))).toEqual([byId]);
    // Locked update: the row lock, then the write (by the id it locked).
    expect(await plansOf((s) => s.update<Thing>(ctx, 'store', { id: aStore.id }, 1, rename))).toEqual([byId, byId]);
    expect(await plansOf((s) => s.update<Thing>(ctx, 'customer', { key: customer.key! }, 1, rename))).toEqual([byKey, byId]);
    // Optimistic update: the read, then the write conditioned on the row read.
    expect(await plansOf((s) => s.update<Thing>(ctx, 'store', { id: aStore.id }, 2, rename, { optimistic: true }))).toEqual([byId, byId]);
    expect(await plansOf((s) => s.update<Thing>(ctx, 'customer', { key: customer.key! }, 2, rename, { optimistic: true }))).toEqual([byKey, byId]);
    // Delete: the row lock, then the delete.
    expect(await plansOf((s) => s.delete(ctx, 'customer', { id: customer.id }, 3))).toEqual([byId, byId]);
  });

  it.runIf(run)('for a project that did not exist at the last ANALYZE', { timeout: 120_000 }, async () => {
    await db.query('ANALYZE resources');
    const { store: aStore, customer } = await populate('p2', 400, 200);
    const ctx = { projectKey: 'p2' };

    expect(await plansOf((s) => s.get('p2', 'store', { id: aStore.id }))).toEqual([byId]);
    expect(await plansOf((s) => s.get('p2', 'customer', { id: customer.id }))).toEqual([byId]);
    expect(await plansOf((s) => s.get('p2', 'customer', { key: customer.key! }))).toEqual([byKey]);
    expect(await plansOf((s) => s.update<Thing>(ctx, 'store', { id: aStore.id }, 1, rename, { optimistic: true }))).toEqual([byId, byId]);
  });

  it.runIf(run)('a query predicate on key probes an index (migration 006), with statistics', { timeout: 120_000 }, async () => {
    await populate('p3', 1_500, 0);
    await db.query('ANALYZE resources');
    const plans = await plansOf((s) => s.query('p3', 'store', { where: ['key = "store-700"'], withTotal: false }));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan).toMatch(/^resources_key_(query|lookup)_idx$/);
  });

  it.runIf(run)('optimistic updates written together find their rows through the id index, with statistics', { timeout: 120_000 }, async () => {
    await populate('p4', 1_500, 0);
    await db.query('ANALYZE resources');
    const ids = (await store.query<Thing>('p4', 'store', { where: ['key in ("store-10", "store-700", "store-1400")'], withTotal: false })).results.map(
      (doc) => doc.id,
    );
    const ctx = { projectKey: 'p4' };
    // One turn: one read of the three rows, then one UPDATE … FROM of the three. Joined only on its
    // JSON input, the planner once hashed a scan of every store of the project.
    const plans = await plansOf((s) => Promise.all(ids.map((id) => s.update<Thing>(ctx, 'store', { id }, 1, rename, { optimistic: true }))));
    expect(plans).toEqual([byId, byId]);
  });
});
