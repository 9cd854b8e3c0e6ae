import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitSource } from '../../../../scripts/reference/git-source.js';
import { renderFacts } from '../../../../scripts/reference/render.js';
import type { TypeFact } from '../../src/index.js';

/**
 * The generator's reading and writing, on a throwaway git repository made here (the tests must not
 * need the reference mirror): files come out of the object store at a commit, not a work tree.
 */
describe('generator: git source and rendering', () => {
  let dir: string;
  let first: string;

  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reference-git-'));
    git('init', '-q');
    writeFileSync(join(dir, 'a.raml'), 'type: string\n');
    writeFileSync(join(dir, 'b.raml'), 'type: object\nproperties:\n  é?: string\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    first = git('rev-parse', 'HEAD');
    writeFileSync(join(dir, 'a.raml'), 'type: number\n');
    git('commit', '-q', '-am', 'second');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads files at the commit asked for, one by one and in a batch, in order', () => {
    const source = new GitSource(join(dir, '.git'), first.slice(0, 10));
    expect(source.commit).toBe(first);
    expect(source.show('a.raml')).toBe('type: string\n');
    expect(source.showAll(['b.raml', 'a.raml', 'b.raml'])).toEqual([
      'type: object\nproperties:\n  é?: string\n',
      'type: string\n',
      'type: object\nproperties:\n  é?: string\n',
    ]);
    expect(new GitSource(join(dir, '.git'), 'HEAD').show('a.raml')).toBe('type: number\n');
    expect(() => source.showAll(['missing.raml'])).toThrow(/missing\.raml is not a file/);
  });

  it('renders one type per line in name order, with the source and its commit', () => {
    const types = new Map<string, TypeFact>([
      ['Zone', { type: 'object', properties: { 'key?': 'string' } }],
      ['Address', { type: 'object', properties: { country: 'string' } }],
    ]);
    const text = renderFacts({ repository: 'example/reference', commit: first }, types);
    expect(text).toContain(`// example/reference at ${first}`);
    expect(text.split('\n').filter((line) => line.startsWith('    "'))).toEqual([
      '    "Address": {"type":"object","properties":{"country":"string"}},',
      '    "Zone": {"type":"object","properties":{"key?":"string"}},',
    ]);
    expect(renderFacts({ repository: 'example/reference', commit: first }, new Map([...types].reverse()))).toBe(text);
  });
});
