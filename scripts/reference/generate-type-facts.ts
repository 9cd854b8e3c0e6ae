/**
 * Regenerates packages/testkit/src/reference/type-facts.generated.ts from the official API
 * reference (commercetools-api-reference) at a commit, read from its git object store:
 *
 *   npx tsx scripts/reference/generate-type-facts.ts <path-to-git-dir> [commit]
 *
 * The commit defaults to the pinned one below; the output records the commit it was made from and
 * is the same, byte for byte, for the same commit. CI does not run this (no network to GitHub):
 * the generated file is committed, and regenerated when the pin moves.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TypeFact } from '../../packages/testkit/src/reference/facts.js';
import { GitSource, PINNED_COMMIT, TYPES_DIR } from './git-source.js';
import { parseTypeIndex, typeFactOf } from './raml-types.js';
import { renderFacts } from './render.js';
import { MESSAGE_PREFIXES, RESOURCE_ROOTS } from './roots.js';
import { selectTypes } from './selection.js';

const REPOSITORY = 'commercetools/commercetools-api-reference';
const OUTPUT = resolve(import.meta.dirname, '../../packages/testkit/src/reference/type-facts.generated.ts');

function readAllTypes(source: GitSource): Map<string, TypeFact> {
  const index = parseTypeIndex(source.show(`${TYPES_DIR}/types.raml`));
  const names = [...index.keys()];
  const texts = source.showAll(names.map((name) => `${TYPES_DIR}/${index.get(name) ?? ''}`));
  return new Map(names.map((name, i) => [name, typeFactOf(name, texts[i] ?? '')]));
}

function messageRoots(all: ReadonlyMap<string, TypeFact>): string[] {
  return [...all].filter(([name, fact]) => fact.type === 'Message' && MESSAGE_PREFIXES.some((prefix) => name.startsWith(prefix))).map(([name]) => name);
}

function main(args: readonly string[]): void {
  const [gitDir, revision = PINNED_COMMIT] = args;
  if (gitDir === undefined) {
    console.error('usage: tsx scripts/reference/generate-type-facts.ts <path-to-git-dir> [commit]');
    process.exit(2);
  }
  const source = new GitSource(gitDir, revision);
  const all = readAllTypes(source);
  const selected = selectTypes(all, [...RESOURCE_ROOTS, ...messageRoots(all)]);
  const text = renderFacts({ repository: REPOSITORY, commit: source.commit }, selected);
  writeFileSync(OUTPUT, text);
  console.log(`${selected.size} of ${all.size} types at ${source.commit} → ${OUTPUT} (${text.length} bytes)`);
}

main(process.argv.slice(2));
