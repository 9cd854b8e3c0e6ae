/**
 * The paced writer of engine-throughput.ts, in its own process so that its work does not delay
 * the SQS peer it measures against: creates `store` resources through the DocumentStore at RATE/s
 * for SECONDS and prints `<resource id> <Date.now() after commit>` per write, then `done <rate>`.
 *
 *   node --conditions=@herald/source --import tsx bench/engine-writer.ts DATABASE_URL PROJECT RATE SECONDS
 */
import { DocumentStore, openDatabase } from '@herald/store';

const [url, projectKey, rateText, secondsText] = process.argv.slice(2);
if (url === undefined || projectKey === undefined) throw new Error('usage: engine-writer.ts DATABASE_URL PROJECT RATE SECONDS');
const rate = Number(rateText ?? 500);
const total = rate * Number(secondsText ?? 10);
const db = await openDatabase(url);
const documents = new DocumentStore(db);
const lines: string[] = [];
const start = performance.now();
const writes: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const wait = start + (i * 1000) / rate - performance.now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  writes.push(
    documents.create<{ id: string; version: number; createdAt: string; lastModifiedAt: string }>({ projectKey }, 'store', {}).then((doc) => {
      lines.push(`${doc.id} ${Date.now()}`);
    }),
  );
}
await Promise.all(writes);
const achieved = Math.round((total / (performance.now() - start)) * 1000);
process.stdout.write(`${lines.join('\n')}\ndone ${achieved}\n`);
await db.close();
