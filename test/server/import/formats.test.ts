/**
 * `backlink-query import` of the export formats of other tools, as a process, into the embedded
 * store, then the answers of overview, links and ref-domains over HTTP. Each file starts with its
 * tool's header line exactly as a real export has it (the source of each is named beside it, and
 * in docs/importing.md); the rows are written by hand, one of them broken on purpose. Every
 * expected value is worked out by hand from those rows and the interface.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { createServer } from '../../../src/server/server.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { fileTempDir } from '../../helpers/file-end.js';

const dir = fileTempDir('bq-import-formats-');
const KEY = { id: 'tester', key: 'test-key-formats', units: 1_000_000 };
const NOW = new Date('2026-06-15T12:00:00Z');
const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

let files = 0;
function file(name: string, content: string | Buffer): string {
  const path = join(dir(), `${files++}-${name}`);
  writeFileSync(path, content);
  return path;
}

interface ImportRun {
  readonly code: number;
  readonly stderr: string;
  readonly summary: {
    imported: number; rejected: number; skipped: number; domain_records: number;
    files: { format: string; imported: number; rejected: number; skipped: number; fields: Record<string, { kind: string; columns: string[] }> }[];
  };
}

async function importInto(db: string, paths: readonly string[], ...args: string[]): Promise<ImportRun> {
  const run = await runCli(['import', ...paths, '--db', db, ...args]);
  expect(run.stdout, run.stderr).not.toBe('');
  return { code: run.code ?? -1, stderr: run.stderr, summary: JSON.parse(run.stdout) };
}

/** The fields of a report grouped by how they were filled: `{ mapped: [...], derived: [...], default: [...] }`, in record order. */
function kinds(fields: Record<string, { kind: string }>): Record<string, string[]> {
  const grouped: Record<string, string[]> = { mapped: [], derived: [], default: [] };
  for (const [field, { kind }] of Object.entries(fields)) grouped[kind]!.push(field);
  return grouped;
}

/** A server over the database, answering as of NOW. */
async function serve(db: string) {
  const { tldts } = await loadServerDeps();
  const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
  const app = await createServer({ store, keys: [KEY], now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
  apps.push(app);
  const call = async (operation: string, query: Record<string, string>) => {
    const response = await app.inject({ method: 'GET', url: `/_api/apis/v4/backlinks/v1/${operation}`, query, headers: { authorization: `Apikey ${KEY.key}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const target = { url: 'acme.test', scope: 'ROOT_DOMAIN' };
  return {
    /** Closes the server and its store (DuckDB lets an import write only when no process reads the file). */
    close: () => app.close(),
    overview: () => call('overview', target) as Promise<Record<string, number>>,
    links: async () =>
      ((await call('links', { ...target, limit: '100' })) as Record<string, unknown>[]).sort(
        (a, b) => String(a['source_url']).localeCompare(String(b['source_url'])) || String(a['target_url']).localeCompare(String(b['target_url'])),
      ),
    refDomains: async () =>
      ((await call('ref-domains', { ...target, limit: '100' })) as Record<string, unknown>[])
        .map(({ domain, backlinks_count, domain_score, ip_address, country }) => ({ domain, backlinks_count, domain_score, ip_address, country }))
        .sort((a, b) => String(a.domain).localeCompare(String(b.domain))),
  };
}

/** Picks `keys` of each row. */
const pick = (rows: Record<string, unknown>[], keys: readonly string[]) => rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])));

/** The overview's counters that these tests work out by hand. */
const COUNTERS = ['backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'images_count', 'texts_count', 'new_count', 'lost_count', 'score'];
const counters = (overview: Record<string, number>) => Object.fromEntries(COUNTERS.map((key) => [key, overview[key]]));

describe('Semrush backlinks export', () => {
  // The 19-column header of Semrush's Backlinks export, as in max-byers/SPAMZILLA_SEMRUSH_COLLATION
  // (e5eb6df), 1_06_SEMRUSH_backlinks/acceleratinght.org-backlinks.csv: commas, no BOM.
  const HEADER = 'Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link';
  const csv = [
    HEADER,
    '51,"Reports; Scenarios, Options",https://reports.delve.org/2020/10/report.html,https://www.acme.test/,"""Acme""",51,513,false,false,false,true,false,false,false,false,2024-12-24,2025-05-30,false,false',
    '18,How to Make Presentations,https://www.w3.org/WAI/EO/accessible.html,http://www.acme.test/articles/access.htm,"The Incredible, Accessible logo",10,70,true,false,false,false,false,false,true,false,2024-10-22,2025-02-06,false,true',
    '45,Broken,https://en.wikipedia.org/wiki/X,https://www.acme.test/,Acme,167,689,maybe,false,false,true,false,false,false,false,2023-12-15,2025-05-13,false,false',
    '30,W3C news,https://news.w3.org/2025/acme,https://acme.test/pricing,Acme pricing,5,40,false,true,false,true,false,false,false,true,2025-01-10,2026-06-01,true,false',
  ].join('\r\n');

  it('is found from its header; each field mapped, derived or defaulted as documented; one broken row rejected', async () => {
    const db = join(dir(), 'semrush.db');
    const run = await importInto(db, [file('acme.test-backlinks.csv', `${csv}\r\n`)]);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ imported: 3, rejected: 1, skipped: 0 });
    expect(run.stderr).toMatch(/acme\.test-backlinks\.csv: Semrush backlinks export \(header on line 1, ',' between cells, UTF-8\)/);
    expect(run.stderr).toMatch(/acme\.test-backlinks\.csv:4: "Nofollow" must be true or false/);
    expect(run.stderr).toContain('not read: "Text", "Sitewide", "New link"');
    const [report] = run.summary.files;
    expect(report!.format).toBe('semrush');
    expect(kinds(report!.fields)).toEqual({
      mapped: ['source_url', 'target_url', 'source_title', 'external_links_count', 'internal_links_count', 'page_score', 'first_seen_at', 'last_seen_at',
        'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form', 'is_frame', 'is_image', 'is_lost'],
      derived: ['anchor', 'image_alt', 'source_domain'],
      default: ['redirect_url', 'target_title', 'image_url', 'ip_address', 'lang', 'source_size', 'response_code', 'domain_score', 'is_sitewide_main'],
    });
    expect(report!.fields['page_score']).toEqual({ kind: 'mapped', columns: ['Page ascore'] });

    const api = await serve(db);
    // Three links from two registrable domains (delve.org; w3.org twice), one of them an image, nofollow and lost.
    expect(counters(await api.overview())).toEqual({
      backlinks_count: 3, domains_count: 2, urls_count: 3, follows_count: 2, nofollows_count: 1, sponsored_count: 1, ugc_count: 0,
      images_count: 1, texts_count: 2, new_count: 0, lost_count: 1, score: 0,
    });
    expect(pick(await api.links(), ['source_url', 'target_url', 'anchor', 'image_alt', 'source_title', 'page_score', 'domain_score', 'response_code', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_sponsored', 'is_image', 'is_sitewide_main', 'is_lost'])).toEqual([
      {
        source_url: 'https://news.w3.org/2025/acme', target_url: 'https://acme.test/pricing', anchor: 'Acme pricing', image_alt: '', source_title: 'W3C news',
        page_score: 30, domain_score: 0, response_code: 200, first_seen_at: '2025-01-10T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: 'w3.org',
        is_nofollow: false, is_sponsored: true, is_image: false, is_sitewide_main: false, is_lost: false,
      },
      {
        source_url: 'https://reports.delve.org/2020/10/report.html', target_url: 'https://www.acme.test/', anchor: '"Acme"', image_alt: '', source_title: 'Reports; Scenarios, Options',
        page_score: 51, domain_score: 0, response_code: 200, first_seen_at: '2024-12-24T00:00:00', last_seen_at: '2025-05-30T00:00:00', source_domain: 'delve.org',
        is_nofollow: false, is_sponsored: false, is_image: false, is_sitewide_main: false, is_lost: false,
      },
      {
        source_url: 'https://www.w3.org/WAI/EO/accessible.html', target_url: 'http://www.acme.test/articles/access.htm', anchor: '', image_alt: 'The Incredible, Accessible logo',
        source_title: 'How to Make Presentations', page_score: 18, domain_score: 0, response_code: 200, first_seen_at: '2024-10-22T00:00:00',
        last_seen_at: '2025-02-06T00:00:00', source_domain: 'w3.org', is_nofollow: true, is_sponsored: false, is_image: true, is_sitewide_main: false, is_lost: true,
      },
    ]);
    // No domain score in this export: the referring domains have none.
    expect(await api.refDomains()).toEqual([
      { domain: 'delve.org', backlinks_count: 1, domain_score: 0, ip_address: '', country: '' },
      { domain: 'w3.org', backlinks_count: 2, domain_score: 0, ip_address: '', country: '' },
    ]);
  });
});

describe('Ahrefs backlinks export', () => {
  // The 37-column header of Ahrefs' Backlinks export, as in percy-lcx/backlink-analyser (30f75c8),
  // data/backlinks/bloomeroo-au.csv; written here as Ahrefs' Excel export is: UTF-16 LE with a byte
  // order mark, tabs between cells, CRLF.
  const HEADER = [
    'Referring page title', 'Referring page URL', 'Language', 'Platform', 'Referring page HTTP code', 'Domain rating', 'UR', 'Domain traffic', 'Referring domains',
    'Linked domains', 'External links', 'Page traffic', 'Keywords', 'Target URL', 'Left context', 'Anchor', 'Right context', 'Redirect Chain URLs',
    'Redirect Chain status codes', 'Type', 'Is spam', 'Content', 'Nofollow', 'UGC', 'Sponsored', 'Rendered', 'Raw', 'Lost status', 'Drop reason',
    'Discovered status', 'First seen', 'Last seen', 'Lost', 'Author', 'Page type', 'Page category', 'Links in group',
  ];
  const row = (cells: Record<string, string>) => HEADER.map((name) => cells[name] ?? '').join('\t');
  const rows = [
    HEADER.join('\t'),
    // line 2: an image link from flowerchimp.com (DR 58), live
    row({ 'Referring page title': 'Same Day Flower Delivery', 'Referring page URL': 'https://www.flowerchimp.com/', Language: 'en', 'Referring page HTTP code': '200',
      'Domain rating': '58', UR: '22', 'External links': '14', 'Target URL': 'https://www.acme.test/', Anchor: 'Ship to AU', Type: 'image', Nofollow: 'false',
      UGC: 'false', Sponsored: 'false', 'First seen': '2022-06-12 21:57:37', 'Last seen': '2026-04-28 05:49:24' }),
    // line 3: a text link whose href redirects to the Target URL, nofollow and ugc, lost; DR with a decimal, two languages
    row({ 'Referring page title': 'How to make Banh Xeo', 'Referring page URL': 'https://boyeatsworld.com.au/recipe/', Language: 'en, fr', 'Referring page HTTP code': '200',
      'Domain rating': '25.6', UR: '7', 'External links': '25', 'Target URL': 'https://www.acme.test/', Anchor: 'Acme Australia', 'Redirect Chain URLs': 'http://acme.test/home',
      'Redirect Chain status codes': '301', Type: 'text', Nofollow: 'true', UGC: 'true', Sponsored: 'false', 'First seen': '2018-03-06 08:34:18',
      'Last seen': '2026-05-05 15:40:19', Lost: '2026-05-06 10:00:00' }),
    // line 4: broken, a domain rating that is not a number
    row({ 'Referring page URL': 'https://broken.example/', 'Domain rating': 'high', 'Target URL': 'https://www.acme.test/', Type: 'text', Nofollow: 'false', UGC: 'false',
      Sponsored: 'false', 'First seen': '2025-01-01 00:00:00', 'Last seen': '2025-01-02 00:00:00' }),
    // line 5: another page of flowerchimp.com, seen last and rated 60 then; its source page answered 404
    row({ 'Referring page title': 'Gifts', 'Referring page URL': 'https://flowerchimp.com/gifts', Language: 'en', 'Referring page HTTP code': '404', 'Domain rating': '60',
      UR: '4.5', 'Target URL': 'https://acme.test/gifts', Anchor: 'gift ideas', Type: 'text', Nofollow: 'false', UGC: 'false', Sponsored: 'true',
      'First seen': '2026-05-20 10:00:00', 'Last seen': '2026-05-30 09:00:00' }),
  ];
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf16le')]);
  // A domains file (commas): flowerchimp.com's own record, the target's, and a score out of range.
  const DOMAINS = 'domain,domain_score,ip_address,country\nflowerchimp.com,70,198.51.100.9,MY\nAcme.test,44,,\nbad.test,101,,\n';

  it('reads UTF-16 with tabs; domain ratings give referring domains their scores until a domains file says otherwise', async () => {
    const db = join(dir(), 'ahrefs.db');
    const exported = file('acme.test-backlinks-subdomains.csv', utf16);
    const run = await importInto(db, [exported]);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ imported: 3, rejected: 1 });
    expect(run.stderr).toMatch(/: Ahrefs backlinks export \(header on line 1, tabs between cells, UTF-16LE\)/);
    expect(run.stderr).toMatch(/acme\.test-backlinks-subdomains\.csv:4: "Domain rating" must be a score from 0 to 100/);
    expect(kinds(run.summary.files[0]!.fields)).toEqual({
      mapped: ['source_url', 'target_url', 'source_title', 'external_links_count', 'response_code', 'page_score', 'domain_score', 'first_seen_at', 'last_seen_at',
        'is_nofollow', 'is_ugc', 'is_sponsored'],
      derived: ['anchor', 'redirect_url', 'image_alt', 'lang', 'source_domain', 'is_form', 'is_frame', 'is_image', 'is_lost'],
      default: ['target_title', 'image_url', 'ip_address', 'source_size', 'internal_links_count', 'is_sitewide_main'],
    });

    const api = await serve(db);
    expect(counters(await api.overview())).toEqual({
      backlinks_count: 3, domains_count: 2, urls_count: 3, follows_count: 2, nofollows_count: 1, sponsored_count: 1, ugc_count: 1,
      images_count: 1, texts_count: 2, new_count: 1, lost_count: 1, score: 0,
    });
    expect(pick(await api.links(), ['source_url', 'target_url', 'redirect_url', 'anchor', 'image_alt', 'lang', 'response_code', 'page_score', 'domain_score', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_ugc', 'is_image', 'is_lost'])).toEqual([
      {
        source_url: 'https://boyeatsworld.com.au/recipe/', target_url: 'https://www.acme.test/', redirect_url: 'http://acme.test/home', anchor: 'Acme Australia',
        image_alt: '', lang: 'en', response_code: 200, page_score: 7, domain_score: 26, first_seen_at: '2018-03-06T08:34:18', last_seen_at: '2026-05-05T15:40:19',
        source_domain: 'boyeatsworld.com.au', is_nofollow: true, is_ugc: true, is_image: false, is_lost: true,
      },
      {
        source_url: 'https://flowerchimp.com/gifts', target_url: 'https://acme.test/gifts', redirect_url: '', anchor: 'gift ideas', image_alt: '', lang: 'en',
        response_code: 404, page_score: 5, domain_score: 60, first_seen_at: '2026-05-20T10:00:00', last_seen_at: '2026-05-30T09:00:00', source_domain: 'flowerchimp.com',
        is_nofollow: false, is_ugc: false, is_image: false, is_lost: false,
      },
      {
        source_url: 'https://www.flowerchimp.com/', target_url: 'https://www.acme.test/', redirect_url: '', anchor: '', image_alt: 'Ship to AU', lang: 'en',
        response_code: 200, page_score: 22, domain_score: 58, first_seen_at: '2022-06-12T21:57:37', last_seen_at: '2026-04-28T05:49:24', source_domain: 'flowerchimp.com',
        is_nofollow: false, is_ugc: false, is_image: true, is_lost: false,
      },
    ]);
    // flowerchimp.com's score is that of its most recently seen link (60, last seen 2026-05-30, not 58).
    expect(await api.refDomains()).toEqual([
      { domain: 'boyeatsworld.com.au', backlinks_count: 1, domain_score: 26, ip_address: '', country: '' },
      { domain: 'flowerchimp.com', backlinks_count: 2, domain_score: 60, ip_address: '', country: '' },
    ]);

    // A domains file replaces the scores derived from links, and gives the target its own score.
    await api.close();
    const domains = await importInto(db, [file('domains.csv', DOMAINS)]);
    expect(domains.code).toBe(1);
    expect(domains.summary).toMatchObject({ imported: 0, domain_records: 2, rejected: 1 });
    expect(domains.stderr).toMatch(/domains\.csv:4: "domain_score" must be a whole number from 0 to 100/);
    // Importing the links again derives their scores again, but a domain record stays as it is.
    expect((await importInto(db, [exported])).summary).toMatchObject({ imported: 3, rejected: 1 });
    const after = await serve(db);
    expect((await after.overview())['score']).toBe(44);
    expect(await after.refDomains()).toEqual([
      { domain: 'boyeatsworld.com.au', backlinks_count: 1, domain_score: 26, ip_address: '', country: '' },
      { domain: 'flowerchimp.com', backlinks_count: 2, domain_score: 70, ip_address: '198.51.100.9', country: 'MY' },
    ]);
  });

  it('reads the same export as UTF-8 with commas, and a domains file named before the links in one command still wins', async () => {
    const db = join(dir(), 'ahrefs-utf8.db');
    const quoted = rows.map((line) => line.split('\t').map((cell) => (/[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','));
    const run = await importInto(db, [file('domains.csv', DOMAINS), file('backlinks.csv', `${quoted.join('\n')}\n`)]);
    expect(run.summary).toMatchObject({ imported: 3, domain_records: 2, rejected: 2 });
    expect(run.stderr).toMatch(/backlinks\.csv: Ahrefs backlinks export \(header on line 1, ',' between cells, UTF-8\)/);
    const api = await serve(db);
    expect((await api.overview())['score']).toBe(44);
    expect((await api.refDomains()).map((row) => [row.domain, row.domain_score])).toEqual([['boyeatsworld.com.au', 26], ['flowerchimp.com', 70]]);
  });
});

describe('Majestic backlinks download', () => {
  // The 20 columns of Majestic's backlinks download (the API's DownloadBackLinks), as read by
  // bowrain0117/Hostelz (fdb4b77), app/Http/Controllers/IncomingLinksController.php.
  const HEADER = 'Target URL,Source URL,Anchor Text,Source Crawl Date,Source First Found Date,FlagNoFollow,FlagImageLink,FlagRedirect,FlagFrame,FlagOldCrawl,FlagAltText,FlagMention,SourceCitationFlow,SourceTrustFlow,TargetCitationFlow,TargetTrustFlow,SourceTopicalTrustFlow_Topic_0,SourceTopicalTrustFlow_Value_0,RefDomainTopicalTrustFlow_Topic_0,RefDomainTopicalTrustFlow_Value_0';
  const csv = [
    HEADER,
    'https://www.acme.test/,http://www.majestic12.co.uk/,majestic-seo,2014-06-15,2014-03-17,,,,,,,,78,61,61,51,Computers/Internet,55,Computers,42',
    'https://www.acme.test/logo,https://halls.md/stats,view ranking,2014-06-15,2014-05-31,1,1,,,1,1,,52,63,0,0,Health/Medicine,55,,',
    'https://www.acme.test/,not a url,oops,2014-06-15,2014-05-31,,,,,,,,1,1,1,1,,,,',
  ].join('\n');

  it('is found from its header: flags set by any value, Trust Flow as the page score, one broken row rejected', async () => {
    const db = join(dir(), 'majestic.db');
    const run = await importInto(db, [file('majestic.csv', csv)]);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 1 });
    expect(run.stderr).toMatch(/majestic\.csv:4: "Source URL" must be a URL with a host/);
    expect(kinds(run.summary.files[0]!.fields)).toEqual({
      mapped: ['source_url', 'target_url', 'page_score', 'first_seen_at', 'last_seen_at', 'is_nofollow', 'is_frame', 'is_image'],
      derived: ['anchor', 'image_alt', 'source_domain', 'is_lost'],
      default: ['redirect_url', 'source_title', 'target_title', 'image_url', 'ip_address', 'lang', 'source_size', 'external_links_count', 'internal_links_count',
        'response_code', 'domain_score', 'is_ugc', 'is_sponsored', 'is_form', 'is_sitewide_main'],
    });
    const api = await serve(db);
    expect(counters(await api.overview())).toEqual({
      backlinks_count: 2, domains_count: 2, urls_count: 2, follows_count: 1, nofollows_count: 1, sponsored_count: 0, ugc_count: 0,
      images_count: 1, texts_count: 1, new_count: 0, lost_count: 1, score: 0,
    });
    expect(pick(await api.links(), ['source_url', 'target_url', 'anchor', 'image_alt', 'page_score', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_image', 'is_lost'])).toEqual([
      {
        source_url: 'http://www.majestic12.co.uk/', target_url: 'https://www.acme.test/', anchor: 'majestic-seo', image_alt: '', page_score: 61,
        first_seen_at: '2014-03-17T00:00:00', last_seen_at: '2014-06-15T00:00:00', source_domain: 'majestic12.co.uk', is_nofollow: false, is_image: false, is_lost: false,
      },
      {
        source_url: 'https://halls.md/stats', target_url: 'https://www.acme.test/logo', anchor: '', image_alt: 'view ranking', page_score: 63,
        first_seen_at: '2014-05-31T00:00:00', last_seen_at: '2014-06-15T00:00:00', source_domain: 'halls.md', is_nofollow: true, is_image: true, is_lost: true,
      },
    ].sort((a, b) => a.source_url.localeCompare(b.source_url)));
    expect(await api.refDomains()).toEqual([
      { domain: 'halls.md', backlinks_count: 1, domain_score: 0, ip_address: '', country: '' },
      { domain: 'majestic12.co.uk', backlinks_count: 1, domain_score: 0, ip_address: '', country: '' },
    ]);
  });
});

describe('Screaming Frog inlinks/outlinks export', () => {
  // The 15-column header of All Inlinks, as in friteuseb/internal_mesh (a448b95), all_inlinks.csv:
  // a UTF-8 byte order mark, every cell quoted.
  const HEADER = '"Type","Source","Destination","Size (Bytes)","Alt Text","Anchor","Status Code","Status","Follow","Target","Rel","Path Type","Link Path","Link Position","Link Origin"';
  const csv = [
    HEADER,
    '"Hyperlink","https://blog.partner.test/post","https://www.acme.test/","47373","","Acme home","200","OK","true","_self","","Absolute","//body/a","Content","HTML"',
    '"Hyperlink","https://blog.partner.test/post","https://www.acme.test/deals","0","Acme logo","","200","OK","true","","sponsored nofollow","Absolute","//body/a[2]","Content","HTML"',
    '"Image","https://blog.partner.test/post","https://blog.partner.test/logo.png","1200","Logo","","200","OK","true","","","Absolute","//img","Content","HTML"',
    '"Hyperlink","https://blog.partner.test/other","https://www.acme.test/","0","","acme","200","OK","yes","","","Absolute","//a","Content","HTML"',
    '"Hyperlink","https://forum.other.test/t/1","https://acme.test/x","0","","acme","404","Not Found","false","","ugc","Root-Relative","//a","Content","HTML"',
  ].join('\r\n');

  it('imports its hyperlinks, skips what is not a link, and dates them with --seen-at', async () => {
    const db = join(dir(), 'frog.db');
    const run = await importInto(db, [file('all_inlinks.csv', `\uFEFF${csv}\r\n`)], '--seen-at', '2026-06-10T08:00:00');
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ imported: 3, rejected: 1, skipped: 1 });
    expect(run.stderr).toMatch(/all_inlinks\.csv:5: "Follow" must be true or false/);
    expect(run.stderr).toContain('1 rows skipped (not links)');
    expect(kinds(run.summary.files[0]!.fields)).toEqual({
      mapped: ['source_url', 'target_url', 'anchor', 'image_alt'],
      derived: ['source_domain', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_image'],
      default: ['redirect_url', 'source_title', 'target_title', 'image_url', 'ip_address', 'lang', 'source_size', 'external_links_count', 'internal_links_count',
        'response_code', 'page_score', 'domain_score', 'first_seen_at', 'last_seen_at', 'is_form', 'is_frame', 'is_sitewide_main', 'is_lost'],
    });
    const api = await serve(db);
    // Seen five days before NOW: every link is new.
    expect(counters(await api.overview())).toEqual({
      backlinks_count: 3, domains_count: 2, urls_count: 2, follows_count: 1, nofollows_count: 2, sponsored_count: 1, ugc_count: 1,
      images_count: 1, texts_count: 2, new_count: 3, lost_count: 0, score: 0,
    });
    expect(pick(await api.links(), ['source_url', 'target_url', 'anchor', 'image_alt', 'response_code', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_image'])).toEqual([
      {
        source_url: 'https://blog.partner.test/post', target_url: 'https://www.acme.test/', anchor: 'Acme home', image_alt: '', response_code: 200,
        first_seen_at: '2026-06-10T08:00:00', last_seen_at: '2026-06-10T08:00:00', source_domain: 'partner.test', is_nofollow: false, is_ugc: false, is_sponsored: false, is_image: false,
      },
      {
        source_url: 'https://blog.partner.test/post', target_url: 'https://www.acme.test/deals', anchor: '', image_alt: 'Acme logo', response_code: 200,
        first_seen_at: '2026-06-10T08:00:00', last_seen_at: '2026-06-10T08:00:00', source_domain: 'partner.test', is_nofollow: true, is_ugc: false, is_sponsored: true, is_image: true,
      },
      {
        source_url: 'https://forum.other.test/t/1', target_url: 'https://acme.test/x', anchor: 'acme', image_alt: '', response_code: 200,
        first_seen_at: '2026-06-10T08:00:00', last_seen_at: '2026-06-10T08:00:00', source_domain: 'other.test', is_nofollow: true, is_ugc: true, is_sponsored: false, is_image: false,
      },
    ].sort((a, b) => a.source_url.localeCompare(b.source_url) || a.target_url.localeCompare(b.target_url)));
    expect(await api.refDomains()).toEqual([
      { domain: 'other.test', backlinks_count: 1, domain_score: 0, ip_address: '', country: '' },
      { domain: 'partner.test', backlinks_count: 2, domain_score: 0, ip_address: '', country: '' },
    ]);
  });

  it('reads the older layout: a title line above an 8-column header, and shorter rows for what is not a link', async () => {
    // As in voltek62/shinyCrawlToPR (e50b8ee), all_outlinks.csv (a January 2017 crawl).
    const old = [
      '"All Outlinks"',
      '"Type","Source","Destination","Alt Text","Anchor","Status Code","Status","Follow"',
      '"HREF","https://data-seo.fr/","https://www.acme.test/","","DATA-SEO","200","","true"',
      '"IMG","https://data-seo.fr/","https://data-seo.fr/wp-content/uploads/2017/01/a.png","BEA","","",""',
      '"HREF","https://data-seo.fr/blog/","https://www.acme.test/x","","seo","200","","false"',
    ].join('\n');
    const db = join(dir(), 'frog-old.db');
    const run = await importInto(db, [file('all_outlinks.csv', old)], '--seen-at', '2017-01-20T00:00:00');
    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 0, skipped: 1 });
    expect(run.stderr).toMatch(/all_outlinks\.csv: Screaming Frog inlinks\/outlinks export \(header on line 2, ',' between cells, UTF-8\)/);
    const fields = run.summary.files[0]!.fields;
    expect(fields['is_nofollow']).toEqual({ kind: 'derived', columns: ['Follow'] });
    // No Rel column in the older layouts: is_ugc is left unknown in both links, and the report says why.
    expect(fields['is_ugc']).toEqual({ kind: 'default', columns: [], absent: ['Rel'], absent_in: 2 });
    const api = await serve(db);
    expect(pick(await api.links(), ['source_url', 'anchor', 'is_nofollow', 'first_seen_at'])).toEqual([
      { source_url: 'https://data-seo.fr/', anchor: 'DATA-SEO', is_nofollow: false, first_seen_at: '2017-01-20T00:00:00' },
      { source_url: 'https://data-seo.fr/blog/', anchor: 'seo', is_nofollow: true, first_seen_at: '2017-01-20T00:00:00' },
    ]);
  });
});

describe('headers', () => {
  it('names the formats it knows when a header fits none, and says which column a file named with --format lacks', async () => {
    const db = join(dir(), 'unknown.db');
    const unknown = await runCli(['import', file('export.csv', 'Link,Page\nhttps://a.test/,https://b.test/\n'), '--db', db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "export.csv: CSV header (line 1) fits no format import reads: the service's own record (columns source_url, target_url, ...), Semrush backlinks export (semrush), " +
        'Ahrefs backlinks export (ahrefs), Majestic backlinks download (majestic), Screaming Frog inlinks/outlinks export (screaming-frog), domains file (domains); ' +
        'see docs/importing.md, or name one with --format\n',
    );
    const forced = await runCli(['import', file('semrush.csv', 'Source url,Target,Anchor\nhttps://a.test/,https://acme.test/,x\n'), '--db', db, '--format', 'semrush']);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('semrush.csv: CSV header (line 1) is not a Semrush backlinks export (named with --format): its columns differ:\n  "Target url" is missing\n');
  });
});
