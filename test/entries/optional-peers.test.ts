/**
 * `backlink-query/kysely` without kysely and `backlink-query/testing` without fast-check: importing
 * the entry fails with a message naming the command to install the peer, as the server does for
 * its own peers, not with a bare ERR_MODULE_NOT_FOUND. Checked in child processes with the peer
 * hidden (hide-packages.mjs), from the sources (tsx) and from both builds: the ESM build loads the
 * peer with a top-level await import(), the CommonJS build with require() (tsup.config.ts swaps
 * `optional-peer.cjs.ts` in). With the peer present, each form imports and works.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'tsup';
import { OPTIONAL_DEPENDENCIES } from '../../src/peers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, '.tmp', `optional-peers-${process.pid}`);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function node(args: readonly string[], hide: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', './test/entries/hide-packages.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, BQ_HIDE_PACKAGES: hide.join(',') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What each entry does once loaded, printed on stdout. */
const USE = {
  // Kysely's sql tag builds the expression: a RawNode with the literal as a parameter.
  kysely: `JSON.stringify(m.filterToKysely({ kind: 'Comparison', field: { kind: 'Field', name: 'domain_score', index: null }, operator: '>', value: { kind: 'Number', value: 50 } }, { dialect: 'sqlite' }).toOperationNode().parameters.map((p) => [p.kind, p.value]))`,
  // fast-check draws a filter text.
  testing: `typeof (await import('fast-check')).sample(m.filterTextArbitrary('links'), { numRuns: 1, seed: 1 })[0]`,
} as const;

const ENTRIES = [
  { entry: 'kysely', peer: 'kysely', source: './src/kysely/index.ts' },
  { entry: 'testing', peer: 'fast-check', source: './src/test-service/index.ts' },
] as const;

/** The forms of an entry: the source through tsx, the ESM build, the CommonJS build. */
function forms(entry: (typeof ENTRIES)[number]): Record<string, (use: string) => string[]> {
  return {
    'the source (tsx)': (use) => ['--import', 'tsx', '--input-type=module', '-e', `const m = await import(${JSON.stringify(entry.source)}); void (async () => console.log(${use}))();`],
    'the ESM build': (use) => ['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(OUT, `${entry.entry}.js`))}); void (async () => console.log(${use}))();`],
    'the CommonJS build': (use) => ['--input-type=commonjs', '-e', `const m = require(${JSON.stringify(join(OUT, `${entry.entry}.cjs`))}); void (async () => console.log(${use}))();`],
  };
}

beforeAll(async () => {
  // The two entries with the project's tsup config (its CommonJS peer loaders included).
  await build({ entry: { kysely: 'src/kysely/index.ts', testing: 'src/test-service/index.ts' }, outDir: OUT, dts: false, sourcemap: false, silent: true });
}, 120_000);
afterAll(() => rm(OUT, { recursive: true, force: true }));

describe.each(ENTRIES)('backlink-query/$entry without $peer', (entry) => {
  const expected = `backlink-query/${entry.entry} needs an optional package that is not installed: ${entry.peer}.\nInstall it with:\n  npm install ${entry.peer}`;

  it.each(Object.entries(forms(entry)))('%s: names the package and the command to install it', async (_, args) => {
    const run = await node(args(USE[entry.entry]), [entry.peer]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`MissingDependencyError: ${expected}\n`);
  });

  it.each(Object.entries(forms(entry)))('%s: with the peer installed, imports and works', async (_, args) => {
    const run = await node(args(USE[entry.entry]), []);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(entry.entry === 'kysely' ? '[["ValueNode",50]]' : 'string');
  });
});

describe('the optional dependencies', () => {
  it('are the ones package.json installs, and the messages say so of exactly those', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };
    expect([...OPTIONAL_DEPENDENCIES].sort()).toEqual(Object.keys(manifest.optionalDependencies).sort());
  });
});
