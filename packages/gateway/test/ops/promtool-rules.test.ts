/**
 * The alert rules (deploy/prometheus/alerts.yml) under Prometheus's own rule engine: `promtool
 * check rules` and the unit tests of deploy/prometheus/tests/*.test.yml (`promtool test rules`),
 * which feed each alert the series of the situation it exists for — the first dropped delivery,
 * the first handler failure, a database outage, a worker restart, no worker at all — and assert
 * when it fires and resolves. Every alert has at least one test in which it fires.
 *
 * CI installs Debian's `prometheus` package (.ci/run); without promtool these tests are skipped
 * with the reason in their name.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isRecord, listFiles, readYaml, repoPath } from './support/repository.js';

const run = promisify(execFile);
const TESTS_DIR = 'deploy/prometheus/tests';
const TEST_FILES = listFiles(TESTS_DIR, '.test.yml');

async function promtoolVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await run('promtool', ['--version']);
    return stdout.split('\n')[0];
  } catch {
    return undefined;
  }
}

const version = await promtoolVersion();
const title = version === undefined ? 'promtool (SKIPPED: promtool is not on PATH; apt-get install prometheus)' : `promtool (${version})`;
if (version === undefined) console.warn(`[promtool-rules] ${title}`);

function alertNames(): string[] {
  const rules = readYaml('deploy/prometheus/alerts.yml');
  if (!isRecord(rules) || !Array.isArray(rules.groups)) throw new Error('alerts.yml: no groups');
  return (rules.groups as { rules?: { alert?: unknown }[] }[]).flatMap((group) => (group.rules ?? []).map((rule) => String(rule.alert)));
}

interface UnitTest {
  name?: unknown;
  alert_rule_test?: { alertname?: unknown; exp_alerts?: unknown[] }[];
}

function unitTests(file: string): { ruleFiles: unknown; tests: UnitTest[] } {
  const parsed = readYaml(TESTS_DIR, file);
  if (!isRecord(parsed) || !Array.isArray(parsed.tests)) throw new Error(`${file}: no tests`);
  return { ruleFiles: parsed.rule_files, tests: parsed.tests as UnitTest[] };
}

describe('promtool unit tests of the alert rules: files', () => {
  it('test the rule file Prometheus loads, and nothing else', () => {
    expect(TEST_FILES.length).toBeGreaterThan(0);
    for (const file of TEST_FILES) expect(unitTests(file).ruleFiles, file).toEqual(['../alerts.yml']);
  });

  it('make every alert fire in at least one test', () => {
    const firing = new Set<string>();
    for (const file of TEST_FILES) {
      for (const test of unitTests(file).tests) {
        for (const check of test.alert_rule_test ?? []) {
          if ((check.exp_alerts ?? []).length > 0) firing.add(String(check.alertname));
        }
      }
    }
    expect(alertNames().filter((name) => !firing.has(name))).toEqual([]);
  });
});

describe.skipIf(version === undefined)(title, () => {
  it('checks the rule file', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', repoPath('deploy/prometheus/alerts.yml')]);
    expect(stdout).toContain('SUCCESS');
  });

  it.each(TEST_FILES)('passes %s', async (file) => {
    // promtool resolves rule_files against its working directory.
    const result = await run('promtool', ['test', 'rules', file], { cwd: repoPath(TESTS_DIR) }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      failed: true,
    }));
    expect('failed' in result ? result.stdout : '').toBe('');
    expect(result.stdout).toContain('SUCCESS');
  });
});
