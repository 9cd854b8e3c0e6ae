/**
 * The paced writer of engine-throughput.ts, in its own process so that its work does not delay
 * the SQS peer it measures against: creates `store` resources through the DocumentStore at RATE/s
 * for WARMUP_SECONDS unmeasured (the bench says how long), prints `measuring`, then for SECONDS, and prints
 * `<resource id> <Date.now() after commit>` per measured write, then `done <rate>`.
 *
 * The warm-up is the writer's own: a cold process (its code still being compiled, its first
 * statements prepared) stalls its event loop, so it issues writes in bursts and reads the clock
 * late after commits (events seemed to arrive before their commit). Measured from the first write,
 * that was most of the p99 (the first half second of 15 s held all events over 60 ms).
 *
 *   node --conditions=@herald/source --import tsx bench/engine-writer.ts DATABASE_URL PROJECT RATE SECONDS WARMUP_SECONDS
 */
import { DocumentStore, openDatabase } from '@herald/store';

const [url, projectKey, rateText, secondsText, warmupText] = process.argv.slice(2);
if (url === undefined || projectKey === undefined) throw new Error('usage: engine-writer.ts DATABASE_URL PROJECT RATE SECONDS WARMUP_SECONDS');
const rate = Number(rateText ?? 500);
const WARMUP_SECONDS = Number(warmupText ?? 0);
const total = rate * Number(secondsText ?? 10);
const db = await openDatabase(url);
const documents = new DocumentStore(db);
const lines: string[] = [];

/** Writes `count` stores at `rate`/s; with `record`, records each one's commit time. */
async function paced(project: string, count: number, record?: string[]): Promise<number> {
  const start = performance.now();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    writes.push(
      documents.create<{ id: string; version: number; createdAt: string; lastModifiedAt: string }>({ projectKey: project }, 'store', {}).then((doc) => {
        record?.push(`${doc.id} ${Date.now()}`);
      }),
    );
  }
  await Promise.all(writes);
  return Math.round((count / (performance.now() - start)) * 1000);
}

await paced(projectKey, Math.round(rate * WARMUP_SECONDS));
process.stdout.write('measuring\n');
const achieved = await paced(projectKey, total, lines);
process.stdout.write(`${lines.join('\n')}\ndone ${achieved}\n`);
await db.close();
