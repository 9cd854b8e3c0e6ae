/**
 * After `tsc` (npm run build): the declarations of the transport adapters import their SDK's types
 * (`SqsPoller` takes an `SQSClient` …), and those SDKs and fastify are optional peer dependencies —
 * an SQS-only service installs neither Azure nor Google packages. A user compiling with
 * `skipLibCheck: false` would then get "Cannot find module '@azure/service-bus'" from our
 * declarations. Each such import is marked `@ts-ignore`: with the SDK installed its types are the
 * real ones; without it, the adapter the user does not use takes `any`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OPTIONAL_PEERS = ['@aws-sdk/client-sqs', '@azure/service-bus', '@google-cloud/pubsub', 'fastify'];
const MARK = '// @ts-ignore optional peer dependency: `any` when it is not installed';
const dist = resolve(import.meta.dirname, '..', 'dist');

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? declarationFiles(join(dir, entry.name)) : entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [],
  );
}

function importsOptionalPeer(line: string): boolean {
  return /^import\b/.test(line) && OPTIONAL_PEERS.some((peer) => line.includes(`'${peer}'`) || line.includes(`"${peer}"`));
}

let marked = 0;
for (const file of declarationFiles(dist)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (importsOptionalPeer(line) && lines[index - 1] !== MARK) {
      out.push(MARK);
      marked++;
    }
    out.push(line);
  }
  writeFileSync(file, out.join('\n'));
}
console.log(`optional-peer-types: marked ${marked} import(s) of optional peer dependencies`);
