/**
 * Writes the variable table of docs/configuration.md from the configuration table.
 *
 *   npm run docs:config -w @herald/gateway              rewrite the document
 *   npm run docs:config -w @herald/gateway -- --check   exit 1 when it is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HERALD_VARIABLE_LIST } from '@herald/model';
import { GENERATOR_COMMAND, renderDocument } from './docs.js';

/** The same four levels up from src/config/ and from dist/config/. */
const DOCUMENT_PATH = resolve(import.meta.dirname, '..', '..', '..', '..', 'docs', 'configuration.md');

const current = readFileSync(DOCUMENT_PATH, 'utf8');
const next = renderDocument(current, HERALD_VARIABLE_LIST);
if (next === current) {
  console.log('docs/configuration.md is up to date');
} else if (process.argv.includes('--check')) {
  console.error(`docs/configuration.md is out of date: run \`${GENERATOR_COMMAND}\``);
  process.exitCode = 1;
} else {
  writeFileSync(DOCUMENT_PATH, next);
  console.log(`docs/configuration.md: ${HERALD_VARIABLE_LIST.length} variables written`);
}
