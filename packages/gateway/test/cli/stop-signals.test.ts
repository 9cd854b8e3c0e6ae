/**
 * Issue 25: `herald serve` and `herald-delivery` stop on SIGTERM, whatever happens to their
 * standard output and whenever the signal comes.
 *
 * - A process whose stdout reader has gone (a log shipper that died, `| head`) used to stay alive
 *   for ever after SIGTERM: pino's exit flush retried the broken pipe every 100 ms.
 * - A SIGTERM during start-up used to kill the process by the default action (the handlers were
 *   installed once it had started): now the start-up step in progress completes, what it opened is
 *   closed, and the process exits 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, killIfRunning, type HeraldProcess } from '../support/processes.js';

/** A start-up on this kind of machine can take 40 s; the stop itself must be prompt. */
const START_MS = 90_000;
const STOP_MS = 20_000;

let running: HeraldProcess | undefined;
afterEach(() => killIfRunning(running));

function listeningPort(process: HeraldProcess, line: string, field: 'port' | 'address'): number {
  const entry = process
    .stdout()
    .split('\n')
    .find((text) => text.includes(line));
  const parsed = JSON.parse(entry ?? '{}') as { port?: number; address?: string };
  return field === 'port' ? Number(parsed.port) : Number(new URL(parsed.address ?? '').port);
}

const worker = (env: Record<string, string> = {}) => heraldDelivery({ DATABASE_URL: 'pglite://memory', PORT: '0', HERALD_DELIVERY_HOST: '127.0.0.1', ...env });
const gateway = (env: Record<string, string> = {}) => herald(['serve'], { DATABASE_URL: 'pglite://memory', PORT: '0', ...env });

describe('SIGTERM after the reader of stdout has gone', () => {
  it('herald-delivery exits 0', { timeout: START_MS + STOP_MS + 10_000 }, async () => {
    running = worker({ LOG_LEVEL: 'trace' });
    await running.waitFor('herald-delivery listening');
    const port = listeningPort(running, 'herald-delivery listening', 'port');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    running.child.stdout!.destroy();
    // Log traffic after the reader went: a scrape logs at trace level.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    running.child.kill('SIGTERM');

    expect(await running.exitWithin(STOP_MS)).toEqual([0, null]);
  });

  it('herald serve exits 0', { timeout: START_MS + STOP_MS + 10_000 }, async () => {
    running = gateway({ LOG_LEVEL: 'debug' });
    await running.waitFor('herald gateway listening');
    const port = listeningPort(running, 'herald gateway listening', 'address');

    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // The lines the stop itself logs are the first to meet the broken pipe.
    running.child.stdout!.destroy();
    running.child.kill('SIGTERM');

    expect(await running.exitWithin(STOP_MS)).toEqual([0, null]);
  });
});

describe('SIGTERM during start-up', () => {
  it('herald-delivery completes the step in progress, closes what it opened and exits 0', { timeout: START_MS + 10_000 }, async () => {
    running = worker({ HERALD_DELIVERY_SHUTDOWN_GRACE_MS: String(START_MS) });
    await running.waitFor('opening the database');
    running.child.kill('SIGTERM');

    expect(await running.exitWithin(START_MS)).toEqual([0, null]);
    expect(running.stdout()).toContain('stopping during start-up');
    expect(running.stdout()).not.toContain('herald-delivery listening');
  });

  it('herald serve completes its start-up, stops and exits 0', { timeout: START_MS + 10_000 }, async () => {
    running = gateway({ HERALD_SHUTDOWN_TIMEOUT_MS: String(START_MS) });
    await running.waitFor('opening the database');
    running.child.kill('SIGTERM');

    expect(await running.exitWithin(START_MS)).toEqual([0, null]);
    expect(running.stdout()).toContain('"signal":"SIGTERM"');
    expect(running.stdout()).toContain('delivery worker stopped');
  });
});
