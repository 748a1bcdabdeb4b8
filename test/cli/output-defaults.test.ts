/**
 * What docs/cli.md promises about the output: a table on a terminal and NDJSON when stdout is a
 * pipe, `--format` choosing otherwise; colour only on a terminal, honouring NO_COLOR and
 * FORCE_COLOR; `--delimiter` for CSV; `filter check --format` with `--json` as its alias. The
 * terminal is a real pseudo-terminal (util-linux `script`). Expected rows are written by hand from
 * the fixture server's rows (test/client/helpers/fixtures.ts: row i's text is `<field>-<i>-<tricky
 * text i>`, its integers i).
 */
import { describe, expect, it } from 'vitest';
import { useColour } from '../../src/cli/style.js';
import { useCliFixture } from './helpers/fixture.js';
import { runCli } from './helpers/run-cli.js';
import { runMain } from './helpers/run-main.js';
import { runTty } from './helpers/run-tty.js';

let env: Record<string, string>;
useCliFixture((fixture) => void ({ env } = fixture));

const LINKS = ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score', '--limit', '3'];
const BOLD = '\x1b[1m';
const RED = '\x1b[31m';

describe('the default format follows stdout', () => {
  it('piped: NDJSON, one record per line, no colour', async () => {
    const run = await runCli(LINKS, { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '{"anchor":"anchor-0-plain","domain_score":0}\n' + '{"anchor":"anchor-1-semi;colon","domain_score":1}\n' + '{"anchor":"anchor-2-say \\"hi\\"","domain_score":2}\n',
    );
    expect(run.stderr).toBe('3 rows · 135 units\n');
  });

  it('one record piped: one NDJSON line', async () => {
    const run = await runMain(['overview', 'example.com', '--scope', 'ROOT_DOMAIN'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ backlinks_count: 7, score: 7 });
  });

  it('on a terminal: the table, its header bold; NO_COLOR takes the colour away, not the table', async () => {
    const run = await runTty(LINKS, env);
    expect(run.code).toBe(0);
    expect(run.output).toContain(`${BOLD}anchor               domain_score\x1b[22m\n`);
    expect(run.output).toContain('\x1b[2m-------------------  ------------\x1b[22m\n');
    expect(run.output).toContain('anchor-1-semi;colon             1\n');

    const plain = await runTty(LINKS, { ...env, NO_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.output).not.toContain('\x1b[');
    expect(plain.output).toContain(
      'anchor               domain_score\n-------------------  ------------\nanchor-0-plain                  0\nanchor-1-semi;colon             1\nanchor-2-say "hi"               2\n',
    );
  });

  it('--format wins over the terminal: ndjson on a terminal, table in a pipe (FORCE_COLOR colours it there)', async () => {
    const tty = await runTty([...LINKS, '--format', 'ndjson'], { ...env, NO_COLOR: '1' });
    expect(tty.output).toContain('{"anchor":"anchor-0-plain","domain_score":0}\n');
    const piped = await runMain([...LINKS, '--format', 'table'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(piped.stdout.split('\n')[0]).toBe(`${BOLD}anchor               domain_score\x1b[22m`);
  });

  it('errors: the prefix red on a terminal (or with FORCE_COLOR), the message as it is', async () => {
    const forced = await runMain(['links', 'example.com', '--scope', 'NOPE'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.code).toBe(2);
    expect(forced.stderr.startsWith(`${RED}backlink-query links:\x1b[39m --scope (invalid_value): `)).toBe(true);
    const tty = await runTty(['links', 'example.com', '--scope', 'NOPE'], env);
    expect(tty.code).toBe(2);
    expect(tty.output).toContain(`${RED}backlink-query links:\x1b[39m --scope`);
    const piped = await runMain(['links', 'example.com', '--scope', 'NOPE'], { env });
    expect(piped.stderr.startsWith('backlink-query links: --scope (invalid_value): ')).toBe(true);
  });
});

describe('when colour is used', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it.each([
    ['a terminal', tty, {}, true],
    ['a pipe', pipe, {}, false],
    ['a terminal with NO_COLOR=1', tty, { NO_COLOR: '1' }, false],
    ['a terminal with NO_COLOR empty (unset, per no-color.org)', tty, { NO_COLOR: '' }, true],
    ['a pipe with FORCE_COLOR=1', pipe, { FORCE_COLOR: '1' }, true],
    ['a pipe with FORCE_COLOR empty', pipe, { FORCE_COLOR: '' }, true],
    ['a terminal with FORCE_COLOR=0', tty, { FORCE_COLOR: '0' }, false],
    ['a terminal with FORCE_COLOR=false', tty, { FORCE_COLOR: 'false' }, false],
    ['FORCE_COLOR=1 and NO_COLOR=1 (FORCE_COLOR first, as in Node)', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ['a dumb terminal', tty, { TERM: 'dumb' }, false],
  ])('%s', (_, stream, environment, expected) => {
    expect(useColour(stream, environment)).toBe(expected);
  });
});

describe('--delimiter', () => {
  it('writes CSV around another delimiter: quotes where a cell holds it, a quote or a line break; CRLF', async () => {
    const run = await runMain(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score', '--limit', '6', '--format', 'csv', '--delimiter', ','], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'anchor,domain_score\r\n' +
        'anchor-0-plain,0\r\n' +
        'anchor-1-semi;colon,1\r\n' +
        '"anchor-2-say ""hi""",2\r\n' +
        '"anchor-3-comma, inside",3\r\n' +
        '"anchor-4-two\nlines",4\r\n' +
        'anchor-5-café ✓ 𝄞,5\r\n',
    );
    // One record (metrics, every field), with a tab: no cell holds one, so none is quoted.
    const tab = await runMain(['metrics', 'shoes', '--country', 'US', '--format', 'csv', '--delimiter', '\t'], { env });
    expect(tab.code).toBe(0);
    expect(tab.stdout).toBe(
      'competitive_density\tcpc\tintents\tkeyword_difficulty\tnumber_of_results\tsearch_volume\tserp_features\ttrends\r\n' +
        '7\tcpc-7-semi;colon\tCOMMERCIAL,INFORMATIONAL,SITELINKS\t7\tnumber_of_results-7-semi;colon\tsearch_volume-7-semi;colon\tCOMMERCIAL,INFORMATIONAL,SITELINKS\t7,8,9,10,11,12,13,14,15,16,17,18\r\n',
    );
  });

  it('the default stays ";"', async () => {
    const run = await runMain([...LINKS, '--format', 'csv'], { env });
    expect(run.stdout).toBe('anchor;domain_score\r\nanchor-0-plain;0\r\n"anchor-1-semi;colon";1\r\n"anchor-2-say ""hi""";2\r\n');
  });

  it.each([
    ['two characters', ['--format', 'csv', '--delimiter', ';;'], '--delimiter must be one character other than a double quote or a line break, not ";;".'],
    ['empty', ['--format', 'csv', '--delimiter', ''], 'not "".'],
    ['a double quote', ['--format', 'csv', '--delimiter', '"'], 'not "\\"".'],
    ['a line feed', ['--format', 'csv', '--delimiter', '\n'], 'not "\\n".'],
    ['a carriage return', ['--format', 'csv', '--delimiter', '\r'], 'not "\\r".'],
    ['a backslash and t', ['--format', 'csv', '--delimiter', '\\t'], "for a tab, pass $'\\t' (bash, zsh) or a literal tab."],
    ['without --format csv', ['--format', 'json', '--delimiter', ','], '--delimiter sets the CSV delimiter; add --format csv (the output is json).'],
    ['without --format, piped (ndjson)', ['--delimiter', ','], 'add --format csv (the output is ndjson).'],
  ])('refuses %s: exit 2, nothing sent', async (_, args, message) => {
    const run = await runMain([...LINKS, ...args], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });
});

describe('filter check --format', () => {
  const FILTER = ['filter', 'check', 'domain_score>50', '--operation', 'links'];
  it('text by default, also piped; json with --format json, -f json or --json (the same bytes)', async () => {
    const text = await runCli(FILTER);
    expect(text).toMatchObject({ code: 0, stdout: 'domain_score > 50\n' });
    expect((await runMain([...FILTER, '--format', 'text'])).stdout).toBe('domain_score > 50\n');
    const json = await runMain([...FILTER, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, canonical: 'domain_score > 50' });
    expect((await runMain([...FILTER, '-f', 'json'])).stdout).toBe(json.stdout);
    expect((await runMain([...FILTER, '--json'])).stdout).toBe(json.stdout);
    expect((await runMain([...FILTER, '--json', '--format', 'json'])).stdout).toBe(json.stdout);
  });

  it.each([
    ['an unknown format', ['--format', 'table'], '--format must be one of text, json, not "table".'],
    ['--json with --format text', ['--json', '--format', 'text'], '--json means --format json; it cannot be used with --format text.'],
  ])('refuses %s with exit 2', async (_, args, message) => {
    const run = await runMain([...FILTER, ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });
});
