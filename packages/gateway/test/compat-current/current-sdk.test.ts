import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createIsolatedDatabase, nodeRuntime, startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startHerald, type RunningHerald } from '../../src/server/start.js';
import { TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';

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
      const steps = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as StepReport);
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
  let database: { url: string; drop(): Promise<void> };
  let herald: RunningHerald;
  let session: { steps: StepReport[]; stderr: string; code: number | null };

  beforeAll(async () => {
    // IAM subscriptions send with Herald's own credentials: the AWS SDK's default chain reads these.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAHERALDCURRENTSDK1');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'herald-current-sdk-secret');
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    sqs = await startSqsPeer({ region: 'us-east-1' });
    const server = process.env.DATABASE_URL;
    database = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : 'pglite://memory');
    herald = await startHerald(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        HERALD_PROJECTS: P,
        HERALD_BOOTSTRAP_CLIENT: `${TEST_BOOTSTRAP_CLIENT.id}:${TEST_BOOTSTRAP_CLIENT.secret}`,
        HERALD_TOKEN_RATE_LIMIT: '0',
        LOG_LEVEL: 'silent',
        HERALD_SQS_ENDPOINT: sqs.endpoint,
        HERALD_ALLOW_INSECURE_DESTINATIONS: 'true',
        HERALD_DELIVERY_SUBSCRIPTION_REFRESH_MS: '0',
      }),
    );
    session = await runSession(node24.binary as string, {
      HERALD_URL: herald.url,
      HERALD_PROJECT: P,
      HERALD_CLIENT_ID: TEST_BOOTSTRAP_CLIENT.id,
      HERALD_CLIENT_SECRET: TEST_BOOTSTRAP_CLIENT.secret,
      SQS_QUEUE_URL: sqs.createQueue('current-sdk'),
    });
  }, 120_000);

  afterAll(async () => {
    await herald?.stop();
    await database?.drop();
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
