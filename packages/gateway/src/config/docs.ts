/**
 * The variable table of docs/configuration.md, rendered from the one configuration table
 * (@herald/model, configuration/). Only the text between the `generated` markers is replaced; the
 * prose around it is written by hand. write-docs.ts writes it; test/ops/configuration-docs.test.ts
 * fails when the document and the table disagree.
 */
import type { Variable } from '@herald/model';

export const GENERATOR_COMMAND = 'npm run docs:config -w @herald/gateway';

export const MARKERS = {
  begin: `<!-- generated:variables:begin (${GENERATOR_COMMAND}) -->`,
  end: '<!-- generated:variables:end -->',
} as const;

/** A table cell: pipes escaped, line breaks folded, so that no description can break the table. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

const code = (text: string): string => `\`${cell(text)}\``;

function row(variable: Variable<unknown>): string {
  const readBy = variable.readBy.map(code).join(', ');
  const shownDefault = variable.shownDefault === undefined ? '—' : code(variable.shownDefault);
  return `| ${code(variable.name)} | ${readBy} | ${shownDefault} | ${cell(variable.rule.accepts)} | ${cell(variable.description)} |`;
}

export function renderVariableTable(variables: readonly Variable<unknown>[]): string {
  return ['| Variable | Read by | Default | Accepts | Meaning |', '|---|---|---|---|---|', ...variables.map(row)].join('\n');
}

/** The generated block of `document`, markers excluded; throws when the markers are missing. */
export function generatedBlock(document: string): string {
  const start = document.indexOf(MARKERS.begin);
  const stop = document.indexOf(MARKERS.end);
  if (start < 0 || stop < start) throw new Error('docs/configuration.md: the markers of the variable table are missing');
  return document.slice(start + MARKERS.begin.length, stop).trim();
}

/** `document` with its generated block replaced by the table of `variables`. */
export function renderDocument(document: string, variables: readonly Variable<unknown>[]): string {
  generatedBlock(document);
  const start = document.indexOf(MARKERS.begin) + MARKERS.begin.length;
  const stop = document.indexOf(MARKERS.end);
  return `${document.slice(0, start)}\n${renderVariableTable(variables)}\n${document.slice(stop)}`;
}
