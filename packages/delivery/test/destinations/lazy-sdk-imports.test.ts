import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src/destinations');
const SDKS = /['"](@aws-sdk\/[^'"]+|@azure\/[^'"]+|@google-cloud\/[^'"]+)['"]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/**
 * ARCHITECTURE.md: SDKs load lazily, inside the adapter that uses them, so a process that delivers
 * only to SQS never loads the Azure SDK. Statically, only `import type` may name an SDK; the
 * runtime import is a dynamic `import()` in the adapter's own folder.
 */
describe('cloud SDKs are imported lazily', () => {
  it('no module imports an SDK at load time', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (SDKS.test(line) && /^\s*(import|export)\b/.test(line) && !/^\s*import type\b/.test(line)) {
          offenders.push(`${relative(SRC, file)}: ${line.trim()}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('each SDK is loaded only by its own adapter folder', () => {
    const owners: Record<string, string> = {
      '@aws-sdk/client-sqs': 'sqs',
      '@aws-sdk/client-sns': 'sns',
      '@aws-sdk/client-eventbridge': 'eventbridge',
      '@azure/service-bus': 'service-bus',
      '@azure/eventgrid': 'event-grid',
      '@google-cloud/pubsub': 'pubsub',
    };
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const sdk = match[1] ?? '';
        if (owners[sdk] !== undefined) expect(relative(SRC, file).split('/')[0]).toBe(owners[sdk]);
      }
    }
  });
});
