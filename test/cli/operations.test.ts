import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { OPERATION_NAMES, operations } from '../../src/catalogue/operations.js';
import { sampleRow } from '../client/helpers/fixtures.js';
import { errorBody, fail, type FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { runCli } from './helpers/run-cli.js';
import { runMain } from './helpers/run-main.js';

let server: FixtureServer;
let env: Record<string, string>;
useCliFixture((fixture) => void ({ server, env } = fixture));

const LINKS = ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score', '--filter', 'domain_score > 50', '--limit', '5'];

describe('operation commands', () => {
  it('sends the request the options describe, with the key from the environment', async () => {
    const run = await runCli([...LINKS, '--format', 'json', '--order-by', 'domain_score', '--direction', 'asc'], { env });
    expect(run.code).toBe(0);
    const request = server.requests[0]!;
    expect(request.path).toBe(operations.links.path);
    expect(request.headers.authorization).toBe('Apikey cli-key');
    expect(Object.fromEntries(request.query)).toEqual({
      url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'anchor,domain_score', order_by: 'domain_score', direction: 'ASC', limit: '5', filter: 'domain_score > 50',
    });
    expect(JSON.parse(run.stdout)).toEqual([0, 1, 2, 3, 4].map((i) => ({ anchor: sampleRow('links', i).anchor, domain_score: i })));
    expect(run.stderr).toContain('5 rows · 225 units');
  });

  it('table: aligned columns for people, numbers to the right', async () => {
    const run = await runCli([...LINKS, '--format', 'table'], { env });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^anchor\s+domain_score$/);
    expect(lines[1]).toMatch(/^-+ {2}-+$/);
    expect(lines).toHaveLength(7);
    const column = lines[0]!.indexOf('domain_score') + 'domain_score'.length;
    for (const line of lines.slice(2)) expect(line.length).toBe(column);
    expect(lines[6]).toContain('two lines');
  });

  it('ndjson: one JSON row per line', async () => {
    const run = await runCli([...LINKS, '--format', 'ndjson'], { env });
    const rows = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(rows).toHaveLength(5);
    expect(rows[3]).toEqual({ anchor: sampleRow('links', 3).anchor, domain_score: 3 });
  });

  it('csv: the service dialect, read back by a CSV parser', async () => {
    const run = await runCli([...LINKS, '--format', 'csv'], { env });
    const parsed = Papa.parse<string[]>(run.stdout, { delimiter: ';', skipEmptyLines: true });
    expect(parsed.data[0]).toEqual(['anchor', 'domain_score']);
    expect(parsed.data.slice(1).map((r) => r[0])).toEqual([0, 1, 2, 3, 4].map((i) => sampleRow('links', i).anchor));
  });

  it('one record as a field/value table (overview) and as CSV with arrays comma-joined (metrics)', async () => {
    const overview = await runCli(['overview', 'example.com', '--scope', 'root_domain', '--format', 'table'], { env });
    expect(overview.code).toBe(0);
    expect(overview.stdout).toMatch(/^backlinks_count\s+7$/m);
    expect(server.requests[0]!.query.get('scope')).toBe('ROOT_DOMAIN');
    const metrics = await runCli(['metrics', 'running shoes', '--country', 'UK', '--month', '2024-02', '--format', 'csv'], { env });
    expect(metrics.code).toBe(0);
    const [header, row] = Papa.parse<string[]>(metrics.stdout, { delimiter: ';', skipEmptyLines: true }).data;
    expect(header).toEqual(Object.keys(operations.metrics.record));
    expect(row![header!.indexOf('intents')]).toBe('COMMERCIAL,INFORMATIONAL,SITELINKS');
    expect(Object.fromEntries(server.requests[1]!.query)).toEqual({ keyword: 'running shoes', country: 'UK', month: '2024-02' });
  });

  // In-process (the same main) to keep the suite fast; the cases above run the real process.
  // Expected output written by hand from the fixture server's rows (test/client/helpers/fixtures.ts):
  // row i has text `<field>-<i>-<tricky text i>`, integers i, booleans i even, timestamps 2024-(i+1)-01T10:0i:00,
  // numbers i/100, one count per target from i; a single record (overview, metrics) is row 7.
  // `--limit 3` gives rows 0-2; score-profile takes no limit (101 rows, one per score); comparison one row per target.
  const row0 = (names: string) => Object.fromEntries(names.split(' ').map((n) => [n, `${n}-0-plain`]));
  const row2 = (names: string) => Object.fromEntries(names.split(' ').map((n) => [n, `${n}-2-say "hi"`]));
  const T0 = { first_seen_at: '2024-01-01T10:00:00', last_seen_at: '2024-01-01T10:00:00' };
  const T2 = { first_seen_at: '2024-03-01T10:02:00', last_seen_at: '2024-03-01T10:02:00' };
  const HISTORY_0 = { score: 0, backlinks_count: 0, domains_count: 0, follows_count: 0, ...row0('month_date url scope') };
  const HISTORY_2 = { score: 2, backlinks_count: 2, domains_count: 2, follows_count: 2, ...row2('month_date url scope') };
  const LINK_FLAGS = { is_nofollow: true, is_ugc: true, is_sponsored: true, is_form: true, is_frame: true, is_image: true, is_sitewide_main: true, is_new: true, is_lost: true };
  const linkRow = (i: 0 | 2) => ({
    ...(i === 0 ? row0 : row2)('source_url target_url anchor redirect_url source_title target_title image_url image_alt ip_address lang'),
    source_size: i, external_links_count: i, internal_links_count: i, response_code: i, page_score: i, domain_score: i,
    ...(i === 0 ? T0 : T2),
    source_domain: i === 0 ? 'source_domain-0-plain' : 'source_domain-2-say "hi"',
    ...LINK_FLAGS,
  });
  const OVERVIEW = Object.fromEntries(
    'backlinks_count domains_count urls_count follows_count nofollows_count sponsored_count ugc_count frames_count forms_count images_count texts_count ips_count ip_class_c_count new_count lost_count score'
      .split(' ')
      .map((n) => [n, 7]),
  );
  const METRICS = {
    competitive_density: 7, cpc: 'cpc-7-semi;colon', intents: ['COMMERCIAL', 'INFORMATIONAL', 'SITELINKS'], keyword_difficulty: 7,
    number_of_results: 'number_of_results-7-semi;colon', search_volume: 'search_volume-7-semi;colon',
    serp_features: ['COMMERCIAL', 'INFORMATIONAL', 'SITELINKS'], trends: [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
  };
  const EXPECTED: Record<string, { lines: number; first: object; last: object; stderr: string }> = {
    overview: { lines: 1, first: OVERVIEW, last: OVERVIEW, stderr: '45 units' },
    summary: { lines: 3, first: HISTORY_0, last: HISTORY_2, stderr: '3 rows · 120 units' },
    links: { lines: 3, first: linkRow(0), last: linkRow(2), stderr: '3 rows · 135 units' },
    'ref-domains': {
      lines: 3,
      first: { ...row0('domain ip_address country'), backlinks_count: 0, domain_score: 0, ...T0, is_follow: true, is_new: true, is_lost: true },
      last: { ...row2('domain ip_address country'), backlinks_count: 2, domain_score: 2, ...T2, is_follow: true, is_new: true, is_lost: true },
      stderr: '3 rows · 120 units',
    },
    'ref-ips': {
      lines: 3,
      first: { ...row0('ip_address country'), backlinks_count: 0, domains_count: 0, ...T0 },
      last: { ...row2('ip_address country'), backlinks_count: 2, domains_count: 2, ...T2 },
      stderr: '3 rows · 60 units',
    },
    pages: {
      lines: 3,
      first: { ...row0('source_url source_title'), response_code: 0, backlinks_count: 0, domains_count: 0, external_links_count: 0, internal_links_count: 0, ...T0 },
      last: { ...row2('source_url source_title'), response_code: 2, backlinks_count: 2, domains_count: 2, external_links_count: 2, internal_links_count: 2, ...T2 },
      stderr: '3 rows · 120 units',
    },
    anchors: {
      lines: 3,
      first: { anchor: 'anchor-0-plain', backlinks_count: 0, domains_count: 0, ...T0 },
      last: { anchor: 'anchor-2-say "hi"', backlinks_count: 2, domains_count: 2, ...T2 },
      stderr: '3 rows · 120 units',
    },
    'score-profile': { lines: 101, first: { domain_score: 0, domains_count: 0 }, last: { domain_score: 100, domains_count: 100 }, stderr: '101 rows · 101 units' },
    competitors: {
      lines: 3,
      first: { domain: 'domain-0-plain', similarity: 0, common_refdomains: 0 },
      last: { domain: 'domain-2-say "hi"', similarity: 0.02, common_refdomains: 2 },
      stderr: '3 rows · 120 units',
    },
    comparison: { lines: 3, first: HISTORY_0, last: HISTORY_2, stderr: '3 rows · 120 units' },
    matrix: {
      lines: 3,
      first: { ...row0('domain'), domain_score: 0, ...row0('ip_address country'), matches_count: 0, backlinks_counts: [0, 1, 2] },
      last: { ...row2('domain'), domain_score: 2, ...row2('ip_address country'), matches_count: 2, backlinks_counts: [2, 3, 4] },
      stderr: '3 rows · 120 units',
    },
    metrics: { lines: 1, first: METRICS, last: METRICS, stderr: '20 units' },
  };

  it.each(OPERATION_NAMES)('%s runs, with the target as its positional argument, and prints the rows it was sent', async (operation) => {
    const target = operation === 'comparison' || operation === 'matrix' ? ['a.com,b.com', 'c.com'] : ['example.com'];
    const scope = 'scope' in operations[operation].params ? ['--scope', 'PAGE'] : [];
    const country = operation === 'metrics' ? ['--country', 'US'] : [];
    const limit = 'limit' in operations[operation].params ? ['--limit', '3'] : [];
    const run = await runMain([operation, ...target, ...scope, ...country, ...limit, '--format', 'ndjson', '--yes'], { env });
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    expect(server.requests[0]!.path).toBe(operations[operation].path);
    if (target.length > 1) expect(server.requests[0]!.query.get('urls')).toBe('a.com,b.com,c.com');
    const expected = EXPECTED[operation]!;
    expect(run.stdout.endsWith('\n')).toBe(true);
    const lines = run.stdout.slice(0, -1).split('\n');
    expect(lines).toHaveLength(expected.lines);
    // Byte for byte: the key order of the hand-written rows is the record order of the interface.
    expect(lines[0]).toBe(JSON.stringify(expected.first));
    expect(lines.at(-1)).toBe(JSON.stringify(expected.last));
    for (const line of lines) expect(Object.keys(JSON.parse(line) as object)).toEqual(Object.keys(expected.first));
    expect(run.stderr.trim()).toBe(expected.stderr);
  });
});

describe('--all', () => {
  it('pages through with --max-rows, no progress drawn when stderr is not a terminal', async () => {
    const run = await runCli(['ref-ips', 'example.com', '--scope', 'ROOT_DOMAIN', '--all', '--max-rows', '130', '--yes', '--format', 'ndjson'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(130);
    expect(server.requests.map((r) => [r.query.get('offset'), r.query.get('limit')])).toEqual([['0', '100'], ['100', '30']]);
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).toContain('130 rows · 2,600 units · 2 pages (--max-rows reached)');
  });

  it('stops at --max-units', async () => {
    const run = await runCli(['anchors', 'example.com', '--scope', 'PAGE', '--all', '--max-units', '2000', '--yes', '--format', 'json'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(50);
    expect(run.stderr).toContain('(--max-units reached)');
  });

  it('uses --limit as the page size (in-process)', async () => {
    const run = await runMain(['ref-ips', 'example.com', '--scope', 'PAGE', '--all', '--limit', '25', '--max-rows', '45', '--format', 'ndjson'], { env });
    expect(run.code).toBe(0);
    expect(server.requests.map((r) => [r.query.get('offset'), r.query.get('limit')])).toEqual([['0', '25'], ['25', '20']]);
  });

  it('reads every row when the caps allow', async () => {
    server.total = 120;
    const run = await runCli(['pages', 'example.com', '--scope', 'PAGE', '--all', '--max-rows', '500', '--yes', '--format', 'csv'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(121);
    expect(server.requests).toHaveLength(2);
  });
});

describe('cost confirmation and refusals', () => {
  it('refuses a call above --confirm-above when stdin is not a terminal, sending nothing', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '200'], { env });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('may cost up to 9,000 units');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses --all without caps (unbounded cost), and --yes lets a call through', async () => {
    const unbounded = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--all'], { env });
    expect(unbounded.code).toBe(4);
    expect(unbounded.stderr).toContain('unbounded');
    const yes = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '200', '--yes', '--format', 'ndjson'], { env });
    expect(yes.code).toBe(0);
    const higher = await runMain(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '200', '--confirm-above', '9000', '--format', 'ndjson'], { env });
    expect(higher.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses with exit 4 when --max-units is below the worst case of one call', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '20', '--max-units', '100'], { env });
    expect(run.code).toBe(4);
    expect(server.requests).toHaveLength(0);
  });
});

describe('errors and exit codes', () => {
  it.each([
    ['no API key', ['links', 'x.com', '--scope', 'PAGE'], { BACKLINK_QUERY_BASE_URL: 'http://127.0.0.1:9' }, 2, 'BACKLINK_QUERY_API_KEY'],
    ['a scope outside the set', ['summary', 'x.com', '--scope', 'SUBFOLDER'], undefined, 2, '--scope'],
    ['a limit that is not a number', ['links', 'x.com', '--scope', 'PAGE', '--limit', 'ten'], undefined, 2, '--limit'],
    ['an unknown field', ['links', 'x.com', '--scope', 'PAGE', '--fields', 'anchr'], undefined, 2, 'did you mean anchor'],
    ['too many urls', ['matrix', 'a,b,c,d,e,f,g', '--scope', 'PAGE'], undefined, 2, '<urls>'],
    ['an unknown option', ['links', 'x.com', '--scope', 'PAGE', '--fitler', 'a'], undefined, 2, '--fitler'],
    ['a bad output format', ['links', 'x.com', '--scope', 'PAGE', '--format', 'xml'], undefined, 2, '--format'],
    ['an invalid filter', ['links', 'x.com', '--scope', 'PAGE', '--filter', 'domain_scor > 5'], undefined, 1, 'unknown_field'],
  ])('%s', async (_, args, customEnv, code, message) => {
    const run = await runMain(args, { env: customEnv ?? env });
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  it('a 4xx of the service exits 1, a 5xx that outlives the retries exits 3', async () => {
    server.queue(fail.status(400, errorBody(400, 'invalid_url', false)));
    const bad = await runCli(['overview', 'x.com', '--scope', 'PAGE'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('400 invalid_url');
    server.queue(fail.raw(503, 'down', 'text/plain'));
    const down = await runCli(['overview', 'x.com', '--scope', 'PAGE', '--retries', '0'], { env });
    expect(down.code).toBe(3);
  });

  it('--help for every operation command', async () => {
    const run = await runCli(['ref-domains', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: backlink-query ref-domains <url>');
    expect(run.stdout).toContain('--order-by');
    expect(run.stdout).toContain('40 units per line');
  });
});

describe('on a terminal (in-process, with stdin and stderr claiming to be terminals)', () => {
  it('asks before an expensive call and goes on after "y"', async () => {
    const run = await runMain(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '120', '--format', 'ndjson'], { env, tty: true, stdin: 'y\n' });
    expect(run.stderr).toContain('This call may cost up to 5,400 units (--confirm-above 5,000). Continue? [y/N]');
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('stops after any other answer, with exit 4', async () => {
    const run = await runMain(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '120'], { env, tty: true, stdin: 'n\n' });
    expect(run.code).toBe(4);
    expect(server.requests).toHaveLength(0);
  });

  it('draws a progress bar on stderr for --all, and clears it', async () => {
    const run = await runMain(['ref-ips', 'example.com', '--scope', 'PAGE', '--all', '--max-rows', '40', '--format', 'ndjson'], { env, tty: true });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('\r[########################] 40 rows · 800 units');
    expect(run.stderr).toContain('\r\x1b[K');
    expect(run.stdout.trim().split('\n')).toHaveLength(40);
  });
});
