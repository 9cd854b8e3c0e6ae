/**
 * Reads the reference's RAML straight from a git object store (a bare mirror needs no work tree):
 * the commit is resolved once, the type index with `git show <commit>:<path>`, and the type files
 * in one `git cat-file --batch` (the same object store, one process instead of thousands).
 */
import { execFileSync } from 'node:child_process';

export const TYPES_DIR = 'api-specs/api/types';

/** The reference commit the generated facts are made from (move it, then rerun the generators). */
export const PINNED_COMMIT = '5867aa22abcab5a521bd5bf0bd3b332c5ad763ae';

export class GitSource {
  readonly commit: string;

  constructor(
    private readonly gitDir: string,
    revision: string,
  ) {
    this.commit = this.git(['rev-parse', '--verify', `${revision}^{commit}`])
      .toString('utf8')
      .trim();
  }

  show(path: string): string {
    return this.git(['show', `${this.commit}:${path}`]).toString('utf8');
  }

  /** The contents of many files at the commit, in the order asked. */
  showAll(paths: readonly string[]): string[] {
    const input = paths.map((path) => `${this.commit}:${path}`).join('\n') + '\n';
    const output = this.git(['cat-file', '--batch'], input);
    const contents: string[] = [];
    let offset = 0;
    for (const path of paths) {
      const headerEnd = output.indexOf(0x0a, offset);
      const header = output.subarray(offset, headerEnd).toString('utf8');
      const [, kind, size] = header.split(' ');
      if (kind !== 'blob' || size === undefined) throw new Error(`${path} is not a file at ${this.commit}: ${header}`);
      const start = headerEnd + 1;
      contents.push(output.subarray(start, start + Number(size)).toString('utf8'));
      offset = start + Number(size) + 1;
    }
    return contents;
  }

  private git(args: readonly string[], input?: string): Buffer {
    return execFileSync('git', ['--git-dir', this.gitDir, ...args], {
      maxBuffer: 1 << 30,
      ...(input === undefined ? {} : { input }),
    });
  }
}
