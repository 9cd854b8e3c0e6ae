import { readRepoFile } from './repository.js';

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** The stages of ./Dockerfile with their instructions (comments and line continuations resolved). */
export function dockerfileStages(text: string = readRepoFile('Dockerfile')): Stage[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Comment lines end nothing: inside a continuation they are skipped, as Docker does.
    if (line.startsWith('#') || line === '') continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(`${current}${line}`);
    current = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ base: match?.[1] ?? args, name: match?.[2] ?? `stage-${stages.length}`, instructions: [] });
      continue;
    }
    stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

/** Exec-form JSON arrays (`CMD ["herald", "serve"]`); undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const withoutOptions = args.replace(/^(--\S+\s+)+/, '').replace(/^CMD\s+/i, '');
  if (!withoutOptions.startsWith('[')) return undefined;
  return JSON.parse(withoutOptions) as string[];
}

/** `COPY [--from=x] [--chown=…] SRC… DEST` → sources, destination and the stage copied from. */
export function copyOf(args: string): { from: string | undefined; sources: string[]; destination: string } {
  const parts = args.split(/\s+/);
  let from: string | undefined;
  while (parts[0]?.startsWith('--')) {
    const option = parts.shift() as string;
    if (option.startsWith('--from=')) from = option.slice('--from='.length);
  }
  const destination = parts.pop() ?? '';
  return { from, sources: parts, destination };
}

/**
 * Whether .dockerignore keeps `path` (relative to the context) out of the build context. Supports
 * what our .dockerignore uses: `*`, `**`, `?`, directory prefixes and `!` exceptions.
 */
export function ignoredByDockerignore(path: string, dockerignore: string = readRepoFile('.dockerignore')): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const toRegExp = (pattern: string): RegExp => {
    let source = '';
    for (let i = 0; i < pattern.length; i++) {
      const char = pattern[i] as string;
      if (pattern.startsWith('**/', i)) {
        source += '(?:.*/)?';
        i += 2;
      } else if (pattern.startsWith('**', i)) {
        source += '.*';
        i += 1;
      } else if (char === '*') source += '[^/]*';
      else if (char === '?') source += '[^/]';
      else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    // A pattern naming a directory excludes everything below it.
    return new RegExp(`^${source}(?:/.*)?$`);
  };
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const body = (negated ? pattern.slice(1) : pattern).replace(/^\//, '').replace(/\/$/, '');
    if (toRegExp(body).test(path)) ignored = !negated;
  }
  return ignored;
}
