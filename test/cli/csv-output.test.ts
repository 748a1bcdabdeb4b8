/**
 * `--format csv` writes the service's CSV byte for byte: `;` between cells, a header row, RFC 4180
 * quoting (only cells holding `;`, `"`, CR or LF), booleans true/false, arrays comma-joined, and
 * every line ending in CRLF, as src/catalogue/csv.ts and the interface's format=csv answer do. The
 * expected bytes are written by hand from the fixture rows (test/client/helpers/fixtures.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { listWriter, writeRecord } from '../../src/cli/output.js';
import { toCsv } from '../../src/catalogue/csv.js';
import { runCli } from './helpers/run-cli.js';

let server: FixtureServer;
let env: Record<string, string>;
useCliFixture((fixture) => void ({ server, env } = fixture));

describe('the CLI writes CSV as the service does', () => {
  it('a list: header, quoted cells where needed, booleans, CRLF after every line (an LF inside a quoted cell stays)', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score,is_new', '--limit', '6', '--format', 'csv'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'anchor;domain_score;is_new\r\n' +
        'anchor-0-plain;0;true\r\n' +
        '"anchor-1-semi;colon";1;false\r\n' +
        '"anchor-2-say ""hi""";2;true\r\n' +
        'anchor-3-comma, inside;3;false\r\n' +
        '"anchor-4-two\nlines";4;true\r\n' +
        'anchor-5-café ✓ 𝄞;5;false\r\n',
    );
  });

  it('one record (metrics): arrays comma-joined in their cell, CRLF line ends', async () => {
    const run = await runCli(['metrics', 'shoes', '--country', 'US', '--format', 'csv'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'competitive_density;cpc;intents;keyword_difficulty;number_of_results;search_volume;serp_features;trends\r\n' +
        '7;"cpc-7-semi;colon";COMMERCIAL,INFORMATIONAL,SITELINKS;7;"number_of_results-7-semi;colon";"search_volume-7-semi;colon";COMMERCIAL,INFORMATIONAL,SITELINKS;7,8,9,10,11,12,13,14,15,16,17,18\r\n',
    );
  });

  it('--all streams one header and CRLF rows across pages; no rows is the header alone', async () => {
    const run = await runCli(['ref-ips', 'example.com', '--scope', 'PAGE', '--fields', 'ip_address,backlinks_count', '--all', '--limit', '2', '--max-rows', '3', '--format', 'csv'], { env });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(run.stdout).toBe(
      'ip_address;backlinks_count\r\n' +
        'ip_address-0-plain;0\r\n' +
        '"ip_address-1-semi;colon";1\r\n' +
        '"ip_address-2-say ""hi""";2\r\n',
    );
    server.total = 0;
    const empty = await runCli(['anchors', 'example.com', '--scope', 'PAGE', '--fields', 'anchor,backlinks_count', '--format', 'csv'], { env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('anchor;backlinks_count\r\n');
  });

  it('the same bytes as the server\'s own writer, also for cells Papa Parse would quote (leading or trailing spaces)', () => {
    const rows = [
      { anchor: ' padded ', domain_score: 1, is_new: true },
      { anchor: 'a;b\r\nc', domain_score: 2, is_new: false },
    ];
    let out = '';
    const writer = listWriter('csv', { write: (text: string) => (out += text) }, () => ['anchor', 'domain_score', 'is_new']);
    for (const row of rows) writer.row(row);
    writer.end();
    expect(out).toBe('anchor;domain_score;is_new\r\n padded ;1;true\r\n"a;b\r\nc";2;false\r\n');
    expect(out).toBe(toCsv(rows, ['anchor', 'domain_score', 'is_new']));
    let record = '';
    writeRecord('csv', { write: (text: string) => (record += text) }, { trends: [1, 2], cpc: '0.5' }, ['cpc', 'trends']);
    expect(record).toBe('cpc;trends\r\n0.5;1,2\r\n');
  });

  it('--help says what the output is', async () => {
    const run = await runCli(['links', '--help']);
    expect(run.stdout).toContain('csv (semicolons and CRLF, as the service writes it)');
  });
});
