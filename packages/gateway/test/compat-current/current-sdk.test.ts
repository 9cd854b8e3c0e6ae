import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeRuntime, startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';
import { serveHerald, type ServedHerald } from '../compat/support.js';

const P = 'current-sdk';
const SESSION = join(import.meta.dirname, 'session.ts');
/** Every resource the session drives, and the steps it must complete for each. */
const EXPECTED: Record<string, string[]> = {
  project: ['read', 'update'],
  stores: ['create', 'read', 'query', 'update', 'delete'],
  types: ['create', 'read', 'query', 'update', 'delete'],
  states: ['create', 'read', 'query', 'update', 'delete'],
  customers: ['create', 'read', 'query', 'update', 'login', 'delete'],
  carts: ['create', 'read', 'query', 'update', 'delete'],
  'quote-requests': ['create', 'read', 'query', 'update', 'delete'],
  'business-units': ['create', 'read', 'query', 'update', 'graphql', 'delete'],
  subscriptions: ['create', 'read', 'query', 'update', 'delete'],
  'api-clients': ['create', 'read', 'query', 'delete'],
  messages: ['query'],
};

interface StepReport {
  step: string;
  ok: boolean;
  error?: string;
}

// The current SDK majors need Node >= 22; the session runs on Node 24 from the npm registry.
const node24 = nodeRuntime(24);
const skipReason = node24.binary === undefined ? `Node 24 is not available here: ${node24.reason}` : undefined;
if (skipReason !== undefined) console.warn(`[skip] current official SDK session: ${skipReason}`);

/** Runs session.ts on Node 24 against Herald; resolves with its step reports and its stderr. */
function runSession(binary: string, env: Record<string, string>): Promise<{ steps: StepReport[]; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--disable-warning=ExperimentalWarning', SESSION], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const steps = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as StepReport);
      resolve({ steps, stderr, code });
    });
  });
}

/**
 * Issue 23: a realistic client session through the CURRENT official TypeScript SDK majors
 * (platform-sdk 9, ts-client 5) covers every resource Herald implements: create, read, query,
 * update with the official actions, delete. Herald runs as `herald serve` does, on a real socket.
 */
describe.skipIf(skipReason !== undefined)('the current official SDK majors on Node 24 against Herald', () => {
  let sqs: SqsPeer;
  let served: ServedHerald;
  let session: { steps: StepReport[]; stderr: string; code: number | null };

  beforeAll(async () => {
    // IAM subscriptions send with Herald's own credentials: the AWS SDK's default chain reads these.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAHERALDCURRENTSDK1');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'herald-current-sdk-secret');
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    sqs = await startSqsPeer({ region: 'us-east-1' });
    served = await serveHerald(P, { HERALD_SQS_ENDPOINT: sqs.endpoint });
    session = await runSession(node24.binary as string, {
      HERALD_URL: served.herald.url,
      HERALD_PROJECT: P,
      HERALD_CLIENT_ID: TEST_BOOTSTRAP_CLIENT.id,
      HERALD_CLIENT_SECRET: TEST_BOOTSTRAP_CLIENT.secret,
      SQS_QUEUE_URL: sqs.createQueue('current-sdk'),
    });
  }, 120_000);

  afterAll(async () => {
    await served?.stop();
    await sqs?.stop();
    vi.unstubAllEnvs();
  });

  it('the session ran to its end on Node 24', () => {
    expect(session.stderr, session.stderr).not.toMatch(/Error|Unhandled/);
    expect(session.code).toBe(0);
  });

  it.each(Object.entries(EXPECTED))('%s: every step succeeds through the SDK', (resource, steps) => {
    const reports = session.steps.filter((report) => report.step.startsWith(`${resource}.`));
    const failed = reports.filter((report) => !report.ok);
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(reports.map((report) => report.step.slice(resource.length + 1))).toEqual(steps);
  });
});
