/**
 * The fields at hand, from the real process: `backlink-query fields <operation>`, the fields in
 * each operation's `--help`, and every error about a field name pointing at the list. Expected
 * names and types are copied from the interface's record tables (service-interface.md), filter and
 * sort from the filter language (which fields a filter names) and the order_by rule (arrays do not
 * sort); the texts from docs/cli.md.
 */
import { describe, expect, it } from 'vitest';
import { useCliFixture } from './helpers/fixture.js';
import { runCli } from './helpers/run-cli.js';

let env: Record<string, string>;
useCliFixture((fixture) => void ({ env } = fixture));

describe('backlink-query fields', () => {
  it('prints a table of the fields by default, also when piped', async () => {
    const run = await runCli(['fields', 'anchors']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'field            type       filter  sort  meaning',
        '---------------  ---------  ------  ----  -------------------------------',
        'anchor           string     yes     yes   Anchor text',
        'backlinks_count  integer    yes     yes   Backlinks with this anchor text',
        'domains_count    integer    yes     yes   Domains with this anchor text',
        'first_seen_at    timestamp  yes     yes   Timestamp first seen',
        'last_seen_at     timestamp  yes     yes   Timestamp last seen',
        '',
      ].join('\n'),
    );
  });

  it('writes how a filter names an array (matrix), and that arrays do not sort', async () => {
    const run = await runCli(['fields', 'matrix', '--format', 'json']);
    expect(run.code).toBe(0);
    const fields = JSON.parse(run.stdout) as Array<{ name: string; type: string; filter: string | null; sort: boolean }>;
    expect(fields.map(({ name, type, filter, sort }) => [name, type, filter, sort])).toEqual([
      ['domain', 'string', 'domain', true],
      ['domain_score', 'integer', 'domain_score', true],
      ['ip_address', 'string', 'ip_address', true],
      ['country', 'string', 'country', true],
      ['matches_count', 'integer', 'matches_count', true],
      ['backlinks_counts', 'integer[]', 'backlinks_counts[n]', false],
    ]);
    const table = await runCli(['fields', 'matrix']);
    // The meaning is never cut, however long (this one is 84 characters).
    expect(table.stdout).toMatch(/^backlinks_counts +integer\[\] +as backlinks_counts\[n\] +no +Backlinks from the domain to each requested target, in the order of the request urls$/m);
  });

  it('says no to filter and sort for an operation that takes neither (metrics)', async () => {
    const run = await runCli(['fields', 'metrics', '-f', 'json']);
    const fields = JSON.parse(run.stdout) as Array<{ name: string; type: string; filter: string | null; sort: boolean }>;
    expect(fields.map((field) => field.name)).toEqual(['competitive_density', 'cpc', 'intents', 'keyword_difficulty', 'number_of_results', 'search_volume', 'serp_features', 'trends']);
    expect(fields.filter((field) => field.filter !== null || field.sort)).toEqual([]);
    // competitors sorts (order_by) but takes no filter; score-profile takes neither (url, scope, format only).
    const competitors = JSON.parse((await runCli(['fields', 'competitors', '--format', 'json'])).stdout) as Array<{ name: string; filter: string | null; sort: boolean }>;
    expect(competitors.map(({ name, filter, sort }) => [name, filter, sort])).toEqual([
      ['domain', null, true],
      ['similarity', null, true],
      ['common_refdomains', null, true],
    ]);
    const profile = JSON.parse((await runCli(['fields', 'score-profile', '--format', 'json'])).stdout) as Array<{ filter: string | null; sort: boolean }>;
    expect(profile.map(({ filter, sort }) => [filter, sort])).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  it('suggests the closest operation, and says what is missing', async () => {
    const typo = await runCli(['fields', 'linkz']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe('backlink-query fields: unknown operation "linkz"; did you mean links?');
    const missing = await runCli(['fields']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe(
      'backlink-query fields: Missing the <operation>: one of overview, summary, links, ref-domains, ref-ips, pages, anchors, score-profile, competitors, comparison, matrix, metrics.',
    );
    const format = await runCli(['fields', 'links', '--format', 'csv']);
    expect(format.code).toBe(2);
    expect(format.stderr.split('\n')[0]).toBe('backlink-query fields: --format must be one of table, json, not "csv".');
  });
});

describe("an operation's --help", () => {
  it('lists its fields with their types and what filter and sort take', async () => {
    const links = (await runCli(['links', '--help'])).stdout;
    expect(links).toContain('their meanings: backlink-query fields links):\n  source_url            string     filter, sort\n');
    expect(links).toContain('\n  first_seen_at         timestamp  filter, sort\n');
    expect(links).toContain('\n  is_lost               boolean    filter, sort\n\n');
    const matrix = (await runCli(['matrix', '--help'])).stdout;
    expect(matrix).toContain('\n  backlinks_counts  integer[]  filter as backlinks_counts[n]\n');
    const metrics = (await runCli(['metrics', '--help'])).stdout;
    expect(metrics).toContain('\n  cpc                  string\n');
    expect(metrics).toContain('\n  trends               integer[]\n');
  });
});

describe('errors about a field name point at the list', () => {
  it('--fields: the closest name when one is close, and where the fields are', async () => {
    const far = await runCli(['links', 'example.com', '--scope', 'PAGE', '--fields', 'url_from'], { env });
    expect(far.code).toBe(2);
    expect(far.stderr.split('\n')[0]).toBe(
      'backlink-query links: --fields (unknown_field): links has no field "url_from" (in fields). See the fields with: backlink-query fields links',
    );
    // The same words in another order are that field.
    const swapped = await runCli(['links', 'example.com', '--scope', 'PAGE', '--fields', 'anchor,url_source'], { env });
    expect(swapped.stderr.split('\n')[0]).toBe(
      'backlink-query links: --fields (unknown_field): links has no field "url_source" (in fields); did you mean source_url? See the fields with: backlink-query fields links',
    );
  });

  it('--order-by: an unknown field and an array', async () => {
    const unknown = await runCli(['ref-domains', 'example.com', '--scope', 'PAGE', '--order-by', 'domain_scor'], { env });
    expect(unknown.stderr.split('\n')[0]).toBe(
      'backlink-query ref-domains: --order-by (unknown_field): ref-domains has no field "domain_scor" (in order_by); did you mean domain_score? See the fields with: backlink-query fields ref-domains',
    );
    const array = await runCli(['matrix', 'a.com,b.com', '--scope', 'PAGE', '--order-by', 'backlinks_counts'], { env });
    expect(array.code).toBe(2);
    expect(array.stderr.split('\n')[0]).toBe(
      'backlink-query matrix: --order-by (not_sortable): order_by cannot be backlinks_counts: it is an array. See the fields with: backlink-query fields matrix',
    );
  });

  it('--filter and filter check: the issues, then the pointer; not after other issues', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'PAGE', '--filter', 'domain_scor > 5'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        'backlink-query links: 1:1 unknown_field: Unknown field domain_scor; did you mean domain_score?',
        '  domain_scor > 5',
        '  ^^^^^^^^^^^',
        'See the fields with: backlink-query fields links',
        '',
      ].join('\n'),
    );
    // filter check prints its result on stdout: the pointer where no close name is offered.
    const check = await runCli(['filter', 'check', 'anchor_text = 1', '--operation', 'anchors']);
    expect(check.stdout.split('\n').slice(-2)).toEqual(['See the fields with: backlink-query fields anchors', '']);
    const close = await runCli(['filter', 'check', 'anchr = 1', '--operation', 'anchors']);
    expect(close.stdout).toBe("1:1 unknown_field: Unknown field anchr; did you mean anchor?\n  anchr = 1\n  ^^^^^\n");
    const syntax = await runCli(['filter', 'check', 'anchor = ', '--operation', 'anchors']);
    expect(syntax.code).toBe(1);
    expect(syntax.stdout).not.toContain('backlink-query fields');
  });
});
