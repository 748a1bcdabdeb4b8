/**
 * Shell completion. The hidden `completion --complete -- <words>` is asked what the docs say it
 * offers (expected lists written by hand from docs/cli.md, the catalogue's tables and
 * docs/completion.md); then the bash script runs in a real bash: once with COMP_WORDS set by hand,
 * the way bash's programmable completion calls it, and once interactively on a pseudo-terminal
 * (util-linux `script`), where a Tab in the middle of a typed line must leave the line the test
 * expects. bash is required (the project's scripts are bash); zsh and fish are not installed by any
 * project script, so their scripts are not run here (see docs/cli.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/catalogue/operations.js';
import { PROJECT, runCli } from './helpers/run-cli.js';
import { cliCommand } from '../helpers/cli-command.js';
import { runMain } from './helpers/run-main.js';

/** The `--complete` answer: the space line, then the candidates. */
async function ask(...words: string[]): Promise<{ space: string; values: string[] }> {
  const run = await runMain(['completion', '--complete', '--', ...words]);
  expect(run.code).toBe(0);
  const [space, ...values] = run.stdout.split('\n').slice(0, -1);
  return { space: space!, values };
}

describe('completion --complete', () => {
  it('the commands, as the first word', async () => {
    expect(await ask('')).toEqual({
      space: 'space',
      values: ['filter', 'fields', ...OPERATION_NAMES, 'serve', 'seed', 'import', 'mcp', 'completion', 'help'],
    });
    expect(await ask('s')).toEqual({ space: 'space', values: ['summary', 'score-profile', 'serve', 'seed'] });
    expect(await ask('filter', '')).toEqual({ space: 'space', values: ['check'] });
    expect(await ask('--v')).toEqual({ space: 'space', values: ['--version'] });
  });

  it("a command's options, from the table its parser reads", async () => {
    // In the order of `links --help`: its parameters, then the output, cost and connection options.
    expect((await ask('links', 'example.com', '--')).values).toEqual([
      '--scope', '--fields', '--order-by', '--direction', '--limit', '--offset', '--filter',
      '--format', '--delimiter', '--all', '--max-rows', '--max-units', '--confirm-above', '--yes', '--api-key', '--base-url', '--timeout', '--retries', '--help',
    ]);
    expect(await ask('filter', 'check', 'x', '--')).toEqual({ space: 'space', values: ['--operation', '--targets', '--format', '--json', '--help'] });
    expect((await ask('seed', '--l')).values).toEqual(['--links']);
    // Options the help names only in prose (serve's --links and --seed, after --sample) are offered too.
    expect((await ask('serve', '--s')).values).toEqual(['--sample', '--seed']);
  });

  it("an option's values: formats, enums in any case, operations, shells", async () => {
    expect(await ask('links', 'x', '--format', '')).toEqual({ space: 'space', values: ['table', 'json', 'ndjson', 'csv'] });
    expect(await ask('filter', 'check', 'x', '--format', '')).toEqual({ space: 'space', values: ['text', 'json'] });
    expect(await ask('import', 'a.csv', '--format', 'n')).toEqual({ space: 'space', values: ['ndjson'] });
    expect(await ask('import', 'a.csv', '--format', 's')).toEqual({ space: 'space', values: ['semrush', 'screaming-frog'] });
    expect(await ask('import', '--template', 's')).toEqual({ space: 'space', values: [] });
    expect(await ask('import', '--template', '')).toEqual({ space: 'space', values: ['ndjson', 'csv'] });
    expect(await ask('links', 'x', '--scope', 'root')).toEqual({ space: 'space', values: ['ROOT_DOMAIN'] });
    expect(await ask('links', 'x', '--direction', '')).toEqual({ space: 'space', values: ['ASC', 'DESC'] });
    expect(await ask('filter', 'check', 'x', '--operation', 'ref-')).toEqual({ space: 'space', values: ['ref-domains', 'ref-ips'] });
    // fields: its one <operation>, then nothing more; its formats.
    expect(await ask('fi')).toEqual({ space: 'space', values: ['filter', 'fields'] });
    expect(await ask('fields', 'ref-')).toEqual({ space: 'space', values: ['ref-domains', 'ref-ips'] });
    expect(await ask('fields', '--format', 'json', 'm')).toEqual({ space: 'space', values: ['matrix', 'metrics'] });
    expect(await ask('fields', 'links', '')).toEqual({ space: 'space', values: [] });
    expect(await ask('fields', 'links', '--format', '')).toEqual({ space: 'space', values: ['table', 'json'] });
    expect(await ask('completion', '')).toEqual({ space: 'space', values: ['bash', 'zsh', 'fish'] });
    // zsh and fish keep `--scope=ro` one word: the candidates keep the `--scope=` too.
    expect(await ask('links', 'x', '--scope=ro')).toEqual({ space: 'space', values: ['--scope=ROOT_DOMAIN'] });
    // bash splits it at `=`: `--scope`, `=`, `ro`, and completes `ro`.
    expect(await ask('links', 'x', '--scope', '=', 'ro')).toEqual({ space: 'space', values: ['ROOT_DOMAIN'] });
  });

  it('--fields: the last item of the list, no space after it', async () => {
    expect(await ask('anchors', 'x', '--fields', 'anchor,backlinks_c')).toEqual({ space: 'nospace', values: ['anchor,backlinks_count'] });
  });

  it('inside --filter: fields, operators, values of the operation, after the opening quote, no space', async () => {
    expect(await ask('links', 'example.com', '--filter', '"domain_sc')).toEqual({ space: 'nospace', values: ['domain_score'] });
    expect(await ask('links', 'example.com', '--filter', "'domain_score > 5 AND is_n")).toEqual({
      space: 'nospace',
      values: ['domain_score > 5 AND is_nofollow', 'domain_score > 5 AND is_new'],
    });
    expect(await ask('links', 'x', '--filter', '"is_new ')).toEqual({ space: 'nospace', values: ['is_new =', 'is_new !='] });
    // A template stops where the value is typed: `'` of `''`, `'%` of `'%%'`.
    expect(await ask('links', 'x', '--filter', '"anchor LIKE ')).toEqual({ space: 'nospace', values: ["anchor LIKE '%", "anchor LIKE '"] });
    // ref-domains has no anchor field: nothing starts with "anc" there.
    expect(await ask('ref-domains', 'x', '--filter', '"anc')).toEqual({ space: 'nospace', values: [] });
    // matrix: backlinks_counts[n] up to the number of targets given before.
    expect((await ask('matrix', 'a.com,b.com', '--filter', '"backlinks_counts')).values).toEqual(['backlinks_counts[1]', 'backlinks_counts[2]']);
    // filter check: the positional is the filter once --operation is known.
    expect(await ask('filter', 'check', '--operation', 'links', '"is_l')).toEqual({ space: 'nospace', values: ['is_lost'] });
  });

  it('the real process prints the same', async () => {
    const run = await runCli(['completion', '--complete', '--', 'links', 'x', '--filter', '"domain_sc']);
    expect(run).toMatchObject({ code: 0, stdout: 'nospace\ndomain_score\n', stderr: '' });
  });
});

describe('completion <shell>', () => {
  it('prints a script per shell; bash parses it', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = await runMain(['completion', shell]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('backlink-query completion --complete --');
    }
    const bash = await runMain(['completion', 'bash']);
    const check = spawnSync('bash', ['-n'], { input: bash.stdout, encoding: 'utf8' });
    expect(check.error).toBeUndefined();
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it.each([
    ['no shell', [], 'Name the shell: bash, zsh, fish.'],
    ['an unknown shell', ['powershell'], 'No completion for "powershell"; the shells are bash, zsh, fish.'],
    ['two shells', ['bash', 'zsh'], 'Expected one shell, got 2 arguments.'],
  ])('refuses %s with exit 2', async (_, args, message) => {
    const run = await runMain(['completion', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('the bash script in bash', () => {
  // A `backlink-query` on the PATH: completion questions go to the real CLI; any other command
  // line prints its arguments, so the test sees what the line became after the Tabs.
  // Made when the suite runs, not when the file is collected: a run that filters these tests out
  // (or `vitest list`) runs no afterAll, and would leave the folder behind.
  let bin: string;
  let script: string;
  let PATH: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'bq-completion-'));
    writeFileSync(
      join(bin, 'backlink-query'),
      `#!/bin/sh\nif [ "$1" = completion ]; then cd ${JSON.stringify(PROJECT)} && exec ${[process.execPath, ...cliCommand()].map((word) => JSON.stringify(word)).join(' ')} "$@"; fi\nprintf 'ARGS:'; for a in "$@"; do printf '<%s>' "$a"; done; echo\n`,
    );
    chmodSync(join(bin, 'backlink-query'), 0o755);
    script = join(bin, 'completion.bash');
    PATH = `${bin}:${process.env['PATH'] ?? ''}`;
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  function bash(args: string[], input = ''): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', args, { env: { PATH, HOME: bin, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
      child.stdin.end(input);
    });
  }

  it('COMPREPLY for COMP_WORDS set as bash sets them', async () => {
    writeFileSync(script, (await runMain(['completion', 'bash'])).stdout);
    const reply = (words: string) =>
      bash(['-c', `source ${script}; COMP_WORDS=(${words}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _backlink_query; printf '[%s]\\n' "\${COMPREPLY[@]}"`]);
    expect(await reply(`backlink-query li`)).toBe('[links]\n');
    expect(await reply(`backlink-query links x --scope ro`)).toBe('[ROOT_DOMAIN]\n');
    expect(await reply(`backlink-query links x --filter '"domain_score > 5 AND is_n'`)).toBe('[domain_score > 5 AND is_nofollow]\n[domain_score > 5 AND is_new]\n');
    // One match inside an open quote: a second one, a space longer, so that readline keeps the quote open.
    expect(await reply(`backlink-query links x --filter '"domain_sc'`)).toBe('[domain_score]\n[domain_score ]\n');
  });

  it('without the builtins bash 3.2 lacks (macOS\'s bash): the same candidates, loaded with eval', async () => {
    writeFileSync(script, (await runMain(['completion', 'bash'])).stdout);
    // mapfile, readarray and compopt came with bash 4; disabled, a script that calls them gets nothing.
    const reply = (words: string) =>
      bash(['-c', `enable -n mapfile readarray compopt; eval "$(cat ${script})"; COMP_WORDS=(${words}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _backlink_query; printf '[%s]\\n' "\${COMPREPLY[@]}"`]);
    expect(await reply(`backlink-query li`)).toBe('[links]\n');
    expect(await reply(`backlink-query links x --filter '"domain_score > 5 AND is_n'`)).toBe('[domain_score > 5 AND is_nofollow]\n[domain_score > 5 AND is_new]\n');
  });

  it('typed on a terminal: Tab completes the command, a scope and the inside of a filter', async () => {
    writeFileSync(script, (await runMain(['completion', 'bash'])).stdout);
    writeFileSync(join(bin, 'rc'), `PS1='$ '\nsource ${script}\n`);
    // The keys are queued before bash starts; readline takes them in order, Tabs included.
    const typed = [
      'backlink-query li\texample.com --sco\troot_domain --filter "domain_sc\t > 50 AND is_ne\t = true"',
      'exit',
      '',
    ].join('\n');
    const screen = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-qec', `bash --noprofile --rcfile ${join(bin, 'rc')} -i`, '/dev/null'], {
        env: { PATH, HOME: bin, TERM: 'xterm' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
      child.stdin.end(typed);
    });
    expect(screen.replace(/\r/g, '')).toMatch(/ARGS:<links><example\.com><--scope><root_domain><--filter><domain_score > 50 AND is_new = true>\n/);
  });
});
