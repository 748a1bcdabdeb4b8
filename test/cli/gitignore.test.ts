/**
 * The files the README and the docs tell a reader to save in the clone (`<!-- example file=NAME -->`
 * marks them, docs/examples.md) stay out of git: `git status` after trying an example shows
 * nothing to commit. Checked with git itself on the clone's .gitignore.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT } from './helpers/run-cli.js';

/** The paths of `names` that git ignores in the clone (git check-ignore prints them, one a line). */
function ignored(names: readonly string[]): string[] {
  try {
    return execFileSync('git', ['check-ignore', '--', ...names], { cwd: PROJECT, encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch (error) {
    // Status 1: none of them is ignored.
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe('files a reader saves in the clone', () => {
  it("example.mjs and example.mts (the README's client example, as JavaScript and TypeScript) are ignored; their neighbours are not", () => {
    expect(ignored(['example.mjs', 'example.mts', 'mcp-session.mjs'])).toEqual(['example.mjs', 'example.mts', 'mcp-session.mjs']);
    // Only those files, at the root: not every module, nor one of the sources by the same name.
    expect(ignored(['other.mjs', 'scripts/example.mjs', 'src/example.mts'])).toEqual([]);
  });

  it('every file=NAME example of the README and docs/*.md is ignored', () => {
    const pages = ['README.md', ...readdirSync(`${PROJECT}docs`).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const names = pages.flatMap((page) => [...readFileSync(`${PROJECT}${page}`, 'utf8').matchAll(/<!-- example [^>]*\bfile=([\w.-]+)/g)].map((match) => match[1]!));
    expect(names).toContain('example.mjs');
    expect(ignored(names)).toEqual(names);
  });
});
