import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { runMain } from './helpers/run-main.js';

describe('backlink-query filter check', () => {
  it('prints the canonical form and exits 0 when the filter is valid', async () => {
    const run = await runCli(['filter', 'check', "domain_score>50 and (anchor like '%seo%' or is_nofollow = TRUE)", '--operation', 'links']);
    expect(run).toMatchObject({ code: 0, stdout: "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = true)\n", stderr: '' });
  });

  it('prints every issue with its caret and exits 1 when it is not', async () => {
    const run = await runCli(['filter', 'check', 'domain_scor > 50 AND anchor LIKE 5', '--operation', 'links']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1:1 unknown_field');
    expect(run.stdout).toContain('did you mean domain_score?');
    expect(run.stdout).toContain('  domain_scor > 50 AND anchor LIKE 5\n  ^^^^^^^^^^^');
    expect(run.stdout).toMatch(/1:34 unexpected_token/);
  });

  it('prints the first 10 issues, then how many more and that --format json lists them all', async () => {
    const run = await runCli(['filter', 'check', '-'], { stdin: 'a ;'.repeat(15) });
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines).toHaveLength(32);
    expect(lines.slice(27)).toEqual(['1:30 unexpected_character: Unexpected character ";".', `  ${'a ;'.repeat(15)}`, `  ${' '.repeat(29)}^`, '… and 5 more issues. Use --format json to list them all.', '']);
    const json = await runCli(['filter', 'check', '-', '--json'], { stdin: 'a ;'.repeat(15) });
    expect(JSON.parse(json.stdout).issues).toHaveLength(15);
  });

  it('--json prints ok, canonical and the AST', async () => {
    const run = await runCli(['filter', 'check', 'backlinks_counts[2] >= 3', '--operation', 'matrix', '--targets', '2', '--json']);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body).toMatchObject({ ok: true, canonical: 'backlinks_counts[2] >= 3', ast: { kind: 'Comparison', field: { name: 'backlinks_counts', index: 2 } } });
  });

  it('--json prints the issues and exits 1', async () => {
    const run = await runCli(['filter', 'check', 'backlinks_counts[3] >= 3', '--operation', 'matrix', '--targets', '2', '--json']);
    expect(run.code).toBe(1);
    const body = JSON.parse(run.stdout);
    expect(body.ok).toBe(false);
    expect(body.issues.map((i: { code: string }) => i.code)).toEqual(['index_out_of_range']);
    expect(body.issues[0]).toMatchObject({ offset: 16, length: 3, line: 1, column: 17 });
  });

  it('reads the filter from stdin with "-", exactly as given', async () => {
    const ok = await runCli(['filter', 'check', '-', '--operation', 'ref-domains'], { stdin: 'domain_score > 50\n' });
    expect(ok).toMatchObject({ code: 0, stdout: 'domain_score > 50\n' });
    // 4,096 characters is the limit: with its trailing newline the input is one character over.
    const filter = `domain = '${'a'.repeat(4096 - 11)}'`;
    expect(filter).toHaveLength(4096);
    const atLimit = await runCli(['filter', 'check', '-', '--operation', 'ref-domains'], { stdin: filter });
    expect(atLimit.code).toBe(0);
    const over = await runCli(['filter', 'check', '-', '--operation', 'ref-domains', '--json'], { stdin: `${filter}\n` });
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stdout).issues[0]).toMatchObject({ code: 'too_long', offset: 4096, length: 1 });
  });

  it('checks only syntax without --operation', async () => {
    const run = await runCli(['filter', 'check', 'anything_at_all = 1']);
    expect(run).toMatchObject({ code: 0, stdout: 'anything_at_all = 1\n' });
  });

  it.each([
    ['an unknown operation', ['filter', 'check', 'a = 1', '--operation', 'linkz'], 'did you mean links'],
    ['--targets that is not a number', ['filter', 'check', 'domain = "a"', '--operation', 'matrix', '--targets', 'two'], '--targets'],
    ['--targets out of range', ['filter', 'check', 'domain = "a"', '--operation', 'matrix', '--targets', '7'], 'targets'],
    ['a missing filter', ['filter', 'check', '--operation', 'links'], 'Missing the filter'],
    ['an unknown option', ['filter', 'check', 'a = 1', '--operation', 'links', '--fast'], 'unknown option --fast.'],
    ['two filters', ['filter', 'check', 'a = 1', 'b = 2'], 'Expected one filter'],
  ])('exits 2 on bad usage: %s', async (_, args, message) => {
    // The first case runs the real process; the rest the same main in-process, for speed.
    const run = await (message === 'did you mean links' ? runCli : runMain)(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('--help for the program and the command, and --version', async () => {
    const program = await runCli(['--help']);
    expect(program.code).toBe(0);
    expect(program.stdout).toContain('filter check');
    expect(program.stdout).toContain('ref-domains');
    const command = await runCli(['filter', 'check', '--help']);
    expect(command.stdout).toContain('Usage: backlink-query filter check');
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const unknown = await runMain(['frobnicate']);
    expect(unknown.code).toBe(2);
  });
});
