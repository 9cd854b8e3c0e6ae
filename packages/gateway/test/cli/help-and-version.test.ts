/**
 * Issue 25: `herald --help`, `herald --version`, `herald <command> --help` and `herald-delivery
 * --help` print usage and exit 0 with no side effects (no server, no ./.herald/data, no check of
 * the variables a command would need); bare `herald` prints usage and exits 2; an unsupported
 * DATABASE_URL scheme is one clean line and exit 2.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, type HeraldProcess } from '../support/processes.js';

const cwd = mkdtempSync(join(tmpdir(), 'herald-help-'));
const VERSION = /^herald 0\.1\.0\n$/;

async function finished(process: HeraldProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const exit = await process.exitWithin(45_000);
  return { code: exit?.[0] ?? null, stdout: process.stdout(), stderr: process.stderr() };
}

describe('herald and herald-delivery answer --help and --version without side effects', { timeout: 60_000 }, () => {
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it.each([['--help'], ['help']])('herald %s prints the usage and exits 0', async (flag) => {
    const run = await finished(herald([flag], {}, cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: herald <command>/);
    expect(run.stdout).toContain('clients create --project KEY');
  });

  it.each([['--version']])('herald %s prints the version and exits 0', async (flag) => {
    const run = await finished(herald([flag], {}, cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(VERSION);
  });

  it('herald serve --help prints its usage, starts nothing and creates no data directory', async () => {
    const run = await finished(herald(['serve', '--help'], { PORT: '0' }, cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: herald serve\n/);
    expect(run.stderr).toBe('');
    expect(existsSync(join(cwd, '.herald'))).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([
    [['projects', 'create', '--help'], /^Usage: herald projects create KEY\n/],
    [['clients', 'create', '--help'], /^Usage: herald clients create --project KEY/],
  ])('herald %j prints the command usage and exits 0', async (args, usage) => {
    const run = await finished(herald(args, {}, cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(usage);
    expect(run.stderr).toBe('');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('bare herald prints the usage on stderr and exits 2', async () => {
    const run = await finished(herald([], {}, cwd));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Usage: herald <command>/);
  });

  it('herald with an unknown command exits 2 naming it', async () => {
    const run = await finished(herald(['server'], {}, cwd));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^herald: unknown command "server"\n/);
  });

  it('herald serve with a mysql:// DATABASE_URL: one line naming DATABASE_URL, exit 2, nothing created', async () => {
    const run = await finished(herald(['serve'], { DATABASE_URL: 'mysql://user:secret-pw@db.example/shop', PORT: '0' }, cwd));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('herald: DATABASE_URL must start with postgres://, postgresql:// or pglite:// (got "mysql:")\n');
    expect(run.stdout).toBe('');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([['--help']])('herald-delivery %s prints its usage and exits 0 without opening the database', async (flag) => {
    const run = await finished(heraldDelivery({}, [flag], cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: herald-delivery/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('herald-delivery --version prints its version', async () => {
    const run = await finished(heraldDelivery({}, ['--version'], cwd));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('herald-delivery 0.1.0\n');
  });

  it('herald-delivery with a mysql:// DATABASE_URL exits 2 with one line', async () => {
    const run = await finished(heraldDelivery({ DATABASE_URL: 'mysql://u@h/db', PORT: '0' }, [], cwd));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('herald-delivery: DATABASE_URL must start with postgres://, postgresql:// or pglite:// (got "mysql:")\n');
  });
});
