/**
 * Generates the variable tables of docs/configuration.md from the code: the gateway's `VARIABLES`
 * (what `herald serve` reads, the in-process delivery worker's settings included) and the worker's
 * `WORKER_VARIABLES` (what `herald-delivery` reads). Only the text between the `generated` markers
 * is replaced; the prose around them is written by hand.
 *
 *   npx tsx scripts/docs-config.ts           rewrite docs/configuration.md
 *   npx tsx scripts/docs-config.ts --check   exit 1 when the document is out of date
 *
 * packages/gateway/test/ops/configuration-docs.test.ts imports the pure functions below and fails
 * when the document and the code disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The shape both `VariableSpec` (gateway) and `WorkerVariable` (delivery) have. */
export interface DocumentedVariable {
  readonly name: string;
  readonly description: string;
  readonly default?: string;
}

export type TableId = 'gateway' | 'worker';

export const DOCUMENT_PATH = resolve(import.meta.dirname, '..', 'docs', 'configuration.md');

export const markers = (id: TableId) =>
  ({
    begin: `<!-- generated:${id}:begin (npx tsx scripts/docs-config.ts) -->`,
    end: `<!-- generated:${id}:end -->`,
  }) as const;

/** A table cell: pipes escaped, line breaks folded, so that no description can break the table. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function renderTable(variables: readonly DocumentedVariable[]): string {
  const rows = variables.map(
    (variable) =>
      `| \`${variable.name}\` | ${variable.default === undefined ? '—' : `\`${cell(variable.default)}\``} | ${cell(variable.description)} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Replaces the generated block `id` of `document` with `table`; throws when the markers are missing. */
export function replaceGenerated(document: string, id: TableId, table: string): string {
  const { begin, end } = markers(id);
  const start = document.indexOf(begin);
  const stop = document.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`docs/configuration.md: markers of the "${id}" table are missing`);
  return `${document.slice(0, start + begin.length)}\n${table}\n${document.slice(stop)}`;
}

export function renderDocument(
  document: string,
  gateway: readonly DocumentedVariable[],
  worker: readonly DocumentedVariable[],
): string {
  return replaceGenerated(replaceGenerated(document, 'gateway', renderTable(gateway)), 'worker', renderTable(worker));
}

/**
 * Loads the variable lists from the TypeScript sources (not from a possibly stale `dist/`): the
 * workspace packages export their sources under the `@herald/source` condition, which tsx does not
 * enable on its own, so a resolve hook adds it before the first `@herald/*` import.
 */
async function loadVariables(): Promise<{ gateway: readonly DocumentedVariable[]; worker: readonly DocumentedVariable[] }> {
  const hook = `export async function resolve(specifier, context, next) {
    return next(specifier, { ...context, conditions: [...context.conditions, '@herald/source'] });
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  const { VARIABLES } = await import('../packages/gateway/src/config/variables.js');
  const { WORKER_VARIABLES } = await import('@herald/delivery');
  return { gateway: VARIABLES, worker: WORKER_VARIABLES };
}

async function main(): Promise<void> {
  const { gateway, worker } = await loadVariables();
  const current = readFileSync(DOCUMENT_PATH, 'utf8');
  const next = renderDocument(current, gateway, worker);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error('docs/configuration.md is out of date: run `npx tsx scripts/docs-config.ts`');
      process.exit(1);
    }
    console.log('docs/configuration.md is up to date');
    return;
  }
  if (next === current) {
    console.log('docs/configuration.md is up to date');
    return;
  }
  writeFileSync(DOCUMENT_PATH, next);
  console.log(`docs/configuration.md: ${gateway.length} gateway and ${worker.length} worker variables written`);
}

// Run only as a script; the test imports the functions above without side effects.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
