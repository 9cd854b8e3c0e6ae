/**
 * docs/configuration.md documents exactly the variables the code reads, with the code's defaults,
 * and nothing in the documentation, the compose file or the image names a HERALD_* variable the
 * code does not know (the gateway refuses to start on one).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WORKER_VARIABLES } from '@herald/delivery';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../../src/config/variables.js';
import { markers, renderTable, type TableId } from '../../../../scripts/docs-config.js';
import { readRepoFile, repoPath } from './support/repository.js';

const DOCUMENT = readRepoFile('docs', 'configuration.md');
const KNOWN = new Set([...VARIABLES, ...WORKER_VARIABLES].map((variable) => variable.name));

/**
 * Variables the documentation mentions that Herald's configuration does not read: the cloud SDKs
 * and the demo read them (docs/configuration.md "Credentials the SDKs find themselves").
 */
const READ_BY_OTHERS = new Set([
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_PROFILE',
  'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'METADATA_SERVER_DETECTION',
  'LOCALSTACK_AUTH_TOKEN',
  'ACCEPT_EULA',
]);

interface Row {
  name: string;
  defaultValue: string | undefined;
}

function generatedBlock(id: TableId): string {
  const { begin, end } = markers(id);
  const start = DOCUMENT.indexOf(begin);
  const stop = DOCUMENT.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`docs/configuration.md has no "${id}" table markers`);
  return DOCUMENT.slice(start + begin.length, stop).trim();
}

/** `| \`NAME\` | \`default\` | meaning |` rows; a cell may name several variables (`A`, `B`). */
function tableRows(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const names = [...(cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] as string);
    const defaultCell = cells[2] ?? '';
    const defaultValue = defaultCell === '—' ? undefined : /^`(.*)`$/.exec(defaultCell)?.[1];
    for (const name of names) rows.push({ name, defaultValue });
  }
  return rows;
}

function filesUnder(directory: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const child = join(path, entry);
      if (statSync(child).isDirectory()) walk(child);
      else found.push(relative(repoPath(), child));
    }
  };
  walk(repoPath(directory));
  return found;
}

describe('docs/configuration.md', () => {
  it('has the tables scripts/docs-config.ts generates from the code (run `npx tsx scripts/docs-config.ts`)', () => {
    expect(generatedBlock('gateway')).toBe(renderTable(VARIABLES));
    expect(generatedBlock('worker')).toBe(renderTable(WORKER_VARIABLES));
  });

  it('documents every variable of the gateway (VARIABLES) with its default, and no other', () => {
    const rows = tableRows(generatedBlock('gateway'));
    expect(rows.map((row) => row.name)).toEqual(VARIABLES.map((variable) => variable.name));
    for (const variable of VARIABLES) {
      expect(rows.find((row) => row.name === variable.name)?.defaultValue, variable.name).toBe(variable.default);
    }
  });

  it('documents every variable of the worker (WORKER_VARIABLES) with its default, and no other', () => {
    const rows = tableRows(generatedBlock('worker'));
    expect(rows.map((row) => row.name)).toEqual(WORKER_VARIABLES.map((variable) => variable.name));
    for (const variable of WORKER_VARIABLES) {
      expect(rows.find((row) => row.name === variable.name)?.defaultValue, variable.name).toBe(variable.default);
    }
  });

  it('names no variable the code does not know, in tables or prose', () => {
    const mentioned = new Set([...DOCUMENT.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT|HOST)`/g)].map((match) => match[1] as string));
    // The code's own names for the two lists are identifiers, not variables.
    const identifiers = new Set(['WORKER_VARIABLES']);
    expect([...mentioned].filter((name) => !KNOWN.has(name) && !READ_BY_OTHERS.has(name) && !identifiers.has(name))).toEqual([]);
    expect(tableRows(DOCUMENT).filter((row) => !KNOWN.has(row.name)).map((row) => row.name)).toEqual([]);
  });
});

describe('the configuration code', () => {
  it('reads no variable that VARIABLES or WORKER_VARIABLES does not declare', () => {
    const sources = ['packages/gateway/src/config/config.ts', 'packages/delivery/src/worker/config.ts'];
    const read = new Set<string>();
    for (const source of sources) {
      const text = readRepoFile(source);
      for (const match of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b|\(env, '([A-Z][A-Z0-9_]*)'/g)) read.add((match[1] ?? match[2]) as string);
    }
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((name) => !KNOWN.has(name))).toEqual([]);
  });
});

describe('HERALD_* names elsewhere in the repository', () => {
  const files = [
    'README.md',
    'docs/operations.md',
    'docker-compose.yml',
    'Dockerfile',
    ...filesUnder('deploy'),
    ...filesUnder('examples'),
  ];

  it.each(files)('%s names only variables the code knows', (file) => {
    const text = readRepoFile(file);
    const unknown = [...text.matchAll(/\bHERALD_[A-Z0-9_]+\b/g)].map((match) => match[0]).filter((name) => !KNOWN.has(name));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it("README's configuration table agrees with the code", () => {
    const readme = readRepoFile('README.md');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const rows = tableRows(section);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const variable = VARIABLES.find((known) => known.name === row.name);
      expect(variable, `${row.name} is not a gateway variable`).toBeDefined();
      expect(row.defaultValue, `${row.name}: default`).toBe(variable?.default);
    }
    expect(section).toContain('docs/configuration.md');
  });
});
