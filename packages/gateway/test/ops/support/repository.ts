import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// A devDependency of the gateway: only these tests read YAML (the repository's own files).
import { parse } from 'yaml';

/** The repository root (these tests live in packages/gateway/test/ops). */
export const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..', '..');

export function repoPath(...segments: string[]): string {
  return join(ROOT, ...segments);
}

export function readRepoFile(...segments: string[]): string {
  return readFileSync(repoPath(...segments), 'utf8');
}

/** YAML as Docker Compose reads it: YAML 1.1 merge keys (`<<: *anchor`) resolved. */
export function readYaml(...segments: string[]): unknown {
  return parse(readRepoFile(...segments), { merge: true });
}

export function readJson(...segments: string[]): unknown {
  return JSON.parse(readRepoFile(...segments)) as unknown;
}

export function listFiles(directory: string, extension: string): string[] {
  const path = repoPath(directory);
  return existsSync(path)
    ? readdirSync(path)
        .filter((name) => name.endsWith(extension))
        .sort()
    : [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Compose's variable interpolation for the forms the compose file uses: `${NAME:-default}`,
 * `${NAME-default}`, `${NAME}` (from `variables`), and `$$` for a literal `$`. Throws on a
 * `${NAME}` without a default that `variables` does not define, as Compose would warn.
 */
export function interpolate(value: string, variables: Readonly<Record<string, string>> = {}): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (all, name: string | undefined, operator, fallback: string) => {
    if (all === '$$') return '$';
    const defined = name === undefined ? undefined : variables[name];
    if (operator === ':-') return defined === undefined || defined === '' ? fallback : defined;
    if (operator === '-') return defined ?? fallback;
    if (defined === undefined) throw new Error(`\${${name}} has no default`);
    return defined;
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const text = (match[1] as string).trim().toLowerCase();
    anchors.add(
      text
        .replace(/`/g, '')
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}
