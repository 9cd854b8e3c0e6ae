/**
 * docs/configuration.md: "A value that does not parse … stops the process with exit code 2 and a
 * message naming the variable", before anything is opened. Covers the values the secret box and
 * pino used to reject only later, with exit 1 and a stack trace: a HERALD_SECRET_KEY shorter than
 * 16 characters and a LOG_LEVEL pino does not know.
 */
import { describe, expect, it } from 'vitest';
import { herald, heraldDelivery } from '../support/processes.js';

const SHORT_KEY = 'too-short';
const worker = (env: Record<string, string>) => heraldDelivery({ DATABASE_URL: 'pglite://memory', PORT: '0', HERALD_DELIVERY_HOST: '127.0.0.1', ...env });

describe('configuration errors stop the process with exit code 2 and name the variable', () => {
  it('herald serve with a HERALD_SECRET_KEY shorter than 16 characters', { timeout: 60_000 }, async () => {
    const gateway = herald(['serve'], { DATABASE_URL: 'pglite://memory', PORT: '0', HERALD_SECRET_KEY: SHORT_KEY });
    const exit = await gateway.exitWithin(45_000);
    expect(exit?.[0], gateway.stderr()).toBe(2);
    expect(gateway.stderr()).toMatch(/^herald: HERALD_SECRET_KEY must be at least 16 characters/);
    expect(gateway.stderr()).not.toContain(SHORT_KEY);
    expect(gateway.stdout()).toBe('');
  });

  it('herald serve with an unknown LOG_LEVEL', { timeout: 60_000 }, async () => {
    const gateway = herald(['serve'], { DATABASE_URL: 'pglite://memory', PORT: '0', LOG_LEVEL: 'verbose' });
    const exit = await gateway.exitWithin(45_000);
    expect(exit?.[0], gateway.stderr()).toBe(2);
    expect(gateway.stderr()).toMatch(/^herald: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('herald-delivery with a HERALD_SECRET_KEY shorter than 16 characters', { timeout: 60_000 }, async () => {
    const process = worker({ HERALD_SECRET_KEY: SHORT_KEY });
    const exit = await process.exitWithin(45_000);
    expect(exit?.[0], process.stderr()).toBe(2);
    expect(process.stderr()).toMatch(/^herald-delivery: HERALD_SECRET_KEY must be at least 16 characters/);
    expect(process.stderr()).not.toContain(SHORT_KEY);
  });

  it('herald-delivery with an unknown LOG_LEVEL', { timeout: 60_000 }, async () => {
    const process = worker({ LOG_LEVEL: 'verbose' });
    const exit = await process.exitWithin(45_000);
    expect(exit?.[0], process.stderr()).toBe(2);
    expect(process.stderr()).toMatch(/^herald-delivery: LOG_LEVEL must be one of .*\(got "verbose"\)/);
  });

  it('herald serve with PORT=0x1F90: integers are decimal digits only, as in the worker', { timeout: 60_000 }, async () => {
    const gateway = herald(['serve'], { DATABASE_URL: 'pglite://memory', PORT: '0x1F90' });
    const exit = await gateway.exitWithin(45_000);
    expect(exit?.[0], gateway.stderr()).toBe(2);
    expect(gateway.stderr()).toBe('herald: PORT must be an integer from 0 to 65535 (got "0x1F90")\n');
  });

  it('herald-delivery with a HERALD_* name no process reads, and not with one the gateway reads', { timeout: 60_000 }, async () => {
    const process = worker({ HERALD_TYPO: 'x', HERALD_PROJECTS: 'shop' });
    const exit = await process.exitWithin(45_000);
    expect(exit?.[0], process.stderr()).toBe(2);
    expect(process.stderr()).toBe('herald-delivery: unknown variable(s) HERALD_TYPO: no Herald process reads them (see docs/configuration.md)\n');
  });
});
