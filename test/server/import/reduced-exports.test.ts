/**
 * `backlink-query import` as a process, into the embedded store, of real exports as users hand
 * them over: each format reduced to its source and target URL columns and one to three others,
 * the names in another letter case and order, another delimiter, and UTF-16 for two of them. The
 * links are read back through the server; the report must name the fields left unknown because
 * their column was absent. A header one letter off a format's gets a short message naming the
 * format and the column. Every expected value is written by hand from the rows below and
 * docs/importing.md (an absent text is empty, a number 0, a flag false, a date the --seen-at time).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { toTarget } from '../../../src/server/target.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { importFiles, links } from './import-helpers.js';

const { dir, newDb } = importFiles('bq-import-reduced-');
const SEEN = '2026-06-10T08:00:00';

let files = 0;
/** Writes a file (text as UTF-8, or bytes as they are) whose name ends in `name`; its path. */
function file(name: string, content: string | Buffer): string {
  const path = join(dir(), `${files++}-${name}`);
  writeFileSync(path, content);
  return path;
}

/** `text` as UTF-16 with its byte order mark, little or big endian. */
function utf16(text: string, bigEndian: boolean): Buffer {
  const data = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return bigEndian ? data.swap16() : data;
}

interface Summary {
  imported: number;
  rejected: number;
  files: { format: string; imported: number; fields: Record<string, { kind: string; columns: string[]; absent?: string[]; absent_in?: number }> }[];
}

async function importInto(db: string, paths: readonly string[], ...args: string[]) {
  const run = await runCli(['import', ...paths, '--db', db, '--seen-at', SEEN, ...args]);
  expect(run.stdout, run.stderr).not.toBe('');
  return { code: run.code, stderr: run.stderr, summary: JSON.parse(run.stdout) as Summary };
}

/** The fields of a file's report that were left unknown, each with its absent columns and the records that got its unknown value. */
const absentFields = (summary: Summary) =>
  Object.fromEntries(Object.entries(summary.files[0]!.fields).flatMap(([field, { absent, absent_in }]) => (absent ? [[field, { absent, absent_in }]] : [])));

/** The fields every test reads back. */
const KEYS = [
  'source_url', 'target_url', 'anchor', 'image_alt', 'source_title', 'ip_address', 'lang', 'external_links_count', 'response_code', 'page_score', 'domain_score',
  'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_sponsored', 'is_image', 'is_lost',
];
/** A link as read back, every field of KEYS at the unknown value an absent column gives, then `fields`. */
const unknownBut = (fields: Record<string, unknown>) => ({
  source_url: '', target_url: '', anchor: '', image_alt: '', source_title: '', ip_address: '', lang: '', external_links_count: 0, response_code: 200, page_score: 0,
  domain_score: 0, first_seen_at: SEEN, last_seen_at: SEEN, source_domain: '', is_nofollow: false, is_sponsored: false, is_image: false, is_lost: false, ...fields,
});
const byUrls = (rows: Record<string, unknown>[]) => rows.sort((a, b) => String(a['source_url']).localeCompare(String(b['source_url'])) || String(a['target_url']).localeCompare(String(b['target_url'])));

describe('an export reduced to a few of its columns, in another case, order and delimiter, imports', () => {
  it('Semrush: four columns in capitals, semicolons', async () => {
    const db = newDb();
    const csv = 'NOFOLLOW;TARGET URL;SOURCE URL;ANCHOR\nTRUE;https://acme.test/pricing;https://blog.partner.test/post;Acme pricing\nfalse;https://acme.test/;https://news.other.test/a;\n';
    const run = await importInto(db, [file('semrush.csv', csv)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 0, files: [{ format: 'semrush' }] });
    expect(run.stderr).toMatch(/semrush\.csv: Semrush backlinks export \(header on line 1, ';' between cells, UTF-8\)/);
    expect(run.stderr).toContain(
      '  left unknown, their column absent: source_title ("Source title"), image_alt ("Image"), external_links_count ("External links"), ' +
        'internal_links_count ("Internal links"), page_score ("Page ascore", "Page score"), first_seen_at ("First seen", "Last seen"), ' +
        'last_seen_at ("Last seen", "First seen"), is_ugc ("Ugc"), is_sponsored ("Sponsored"), is_form ("Form"), is_frame ("Frame"), is_image ("Image"), ' +
        'is_lost ("Lost link")\n',
    );
    const fields = run.summary.files[0]!.fields;
    expect(fields['is_nofollow']).toEqual({ kind: 'mapped', columns: ['NOFOLLOW'] });
    expect(fields['anchor']).toEqual({ kind: 'mapped', columns: ['ANCHOR'] });
    expect(fields['is_form']).toEqual({ kind: 'default', columns: [], absent: ['Form'], absent_in: 2 });
    // A field the export never has is not "absent": ip_address is a default of the format.
    expect(fields['ip_address']).toEqual({ kind: 'default', columns: [] });
    expect(Object.keys(absentFields(run.summary))).toHaveLength(13);
    expect(await links(db, KEYS)).toEqual([
      unknownBut({ source_url: 'https://blog.partner.test/post', target_url: 'https://acme.test/pricing', anchor: 'Acme pricing', source_domain: 'partner.test', is_nofollow: true }),
      unknownBut({ source_url: 'https://news.other.test/a', target_url: 'https://acme.test/', source_domain: 'other.test' }),
    ]);
  });

  it('Ahrefs: four columns in lower case, tabs, UTF-16 little endian with its byte order mark', async () => {
    const db = newDb();
    const text = 'referring page url\ttarget url\tdomain rating\tnofollow\r\nhttps://www.flowerchimp.com/\thttps://www.acme.test/\t58\tfalse\r\nhttps://boyeatsworld.com.au/recipe/\thttps://acme.test/\t25.6\ttrue\r\n';
    const run = await importInto(db, [file('ahrefs.csv', utf16(text, false))]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 0, files: [{ format: 'ahrefs' }] });
    expect(run.stderr).toMatch(/ahrefs\.csv: Ahrefs backlinks export \(header on line 1, tabs between cells, UTF-16LE\)/);
    expect(absentFields(run.summary)).toEqual({
      anchor: { absent: ['Anchor', 'Type'], absent_in: 2 },
      redirect_url: { absent: ['Redirect Chain URLs'], absent_in: 2 },
      source_title: { absent: ['Referring page title'], absent_in: 2 },
      image_alt: { absent: ['Anchor', 'Type'], absent_in: 2 },
      lang: { absent: ['Language'], absent_in: 2 },
      external_links_count: { absent: ['External links'], absent_in: 2 },
      response_code: { absent: ['Referring page HTTP code'], absent_in: 2 },
      page_score: { absent: ['UR'], absent_in: 2 },
      first_seen_at: { absent: ['First seen', 'Last seen'], absent_in: 2 },
      last_seen_at: { absent: ['Last seen', 'First seen'], absent_in: 2 },
      is_ugc: { absent: ['UGC'], absent_in: 2 },
      is_sponsored: { absent: ['Sponsored'], absent_in: 2 },
      is_form: { absent: ['Type'], absent_in: 2 },
      is_frame: { absent: ['Type'], absent_in: 2 },
      is_image: { absent: ['Type'], absent_in: 2 },
      is_lost: { absent: ['Lost'], absent_in: 2 },
    });
    expect(byUrls(await links(db, KEYS))).toEqual([
      unknownBut({ source_url: 'https://boyeatsworld.com.au/recipe/', target_url: 'https://acme.test/', domain_score: 26, source_domain: 'boyeatsworld.com.au', is_nofollow: true }),
      unknownBut({ source_url: 'https://www.flowerchimp.com/', target_url: 'https://www.acme.test/', domain_score: 58, source_domain: 'flowerchimp.com' }),
    ]);
  });

  it('Majestic: five columns in lower case and another order, tabs, UTF-16 big endian with its byte order mark', async () => {
    const db = newDb();
    const text = 'source url\ttarget url\tanchor text\tflagnofollow\tsourcetrustflow\nhttps://halls.md/stats\thttps://www.acme.test/logo\tview ranking\t1\t63\nhttp://www.majestic12.co.uk/\thttps://www.acme.test/\tmajestic-seo\t\t61\n';
    const run = await importInto(db, [file('majestic.csv', utf16(text, true))]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 0, files: [{ format: 'majestic' }] });
    expect(run.stderr).toMatch(/majestic\.csv: Majestic backlinks download \(header on line 1, tabs between cells, UTF-16BE\)/);
    expect(run.stderr).toContain(
      '  left unknown, their column absent: image_alt ("FlagImageLink"), first_seen_at ("Source First Found Date", "Source Crawl Date"), ' +
        'last_seen_at ("Source Crawl Date", "Source First Found Date"), is_frame ("FlagFrame"), is_image ("FlagImageLink"), is_lost ("FlagOldCrawl")\n',
    );
    expect(byUrls(await links(db, KEYS))).toEqual([
      unknownBut({ source_url: 'http://www.majestic12.co.uk/', target_url: 'https://www.acme.test/', anchor: 'majestic-seo', page_score: 61, source_domain: 'majestic12.co.uk' }),
      unknownBut({ source_url: 'https://halls.md/stats', target_url: 'https://www.acme.test/logo', anchor: 'view ranking', page_score: 63, source_domain: 'halls.md', is_nofollow: true }),
    ]);
  });

  it('Screaming Frog: four columns in capitals, semicolons, no Type column (every row a link)', async () => {
    const db = newDb();
    const csv = 'DESTINATION;SOURCE;ANCHOR;REL\nhttps://www.acme.test/;https://blog.partner.test/post;Acme home;\nhttps://www.acme.test/deals;https://blog.partner.test/post;deals;sponsored nofollow\n';
    const run = await importInto(db, [file('all_inlinks.csv', csv)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 2, rejected: 0, skipped: 0, files: [{ format: 'screaming-frog' }] });
    expect(run.stderr).toContain('  left unknown, their column absent: image_alt ("Alt Text"), is_image ("Alt Text")\n');
    expect(run.summary.files[0]!.fields['is_nofollow']).toEqual({ kind: 'derived', columns: ['REL'] });
    expect(byUrls(await links(db, KEYS))).toEqual([
      unknownBut({ source_url: 'https://blog.partner.test/post', target_url: 'https://www.acme.test/', anchor: 'Acme home', source_domain: 'partner.test' }),
      unknownBut({ source_url: 'https://blog.partner.test/post', target_url: 'https://www.acme.test/deals', anchor: 'deals', source_domain: 'partner.test', is_nofollow: true, is_sponsored: true }),
    ]);
  });
});

describe("the service's own record without its optional fields imports", () => {
  it('CSV: four columns in mixed case, commas', async () => {
    const db = newDb();
    const csv = 'Target_URL,Source_URL,Anchor,Is_Nofollow\nhttps://acme.test/,https://blog.example.org/p,hello,true\n';
    const run = await importInto(db, [file('links.csv', csv)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 1, rejected: 0, files: [{ format: 'service' }] });
    expect(run.stderr).toContain(
      "links.csv: the service's own record (header on line 1, ',' between cells, UTF-8)\n  left unknown, their column absent: redirect_url, source_title, target_title, " +
        'image_url, image_alt, ip_address, lang, source_size, external_links_count, internal_links_count, response_code, page_score, domain_score, ' +
        'first_seen_at, last_seen_at, source_domain, is_ugc, is_sponsored, is_form, is_frame, is_image, is_sitewide_main, is_lost\n',
    );
    expect(run.summary.files[0]!.fields['lang']).toEqual({ kind: 'default', columns: [], absent: ['lang'], absent_in: 1 });
    expect(run.summary.files[0]!.fields['anchor']).toEqual({ kind: 'mapped', columns: ['Anchor'] });
    // source_domain absent: the registrable domain of the source URL's host.
    expect(await links(db, KEYS)).toEqual([
      unknownBut({ source_url: 'https://blog.example.org/p', target_url: 'https://acme.test/', anchor: 'hello', source_domain: 'example.org', is_nofollow: true }),
    ]);
  });

  it('NDJSON: records lacking fields, counted per field; a present but bad value still rejects its line; a link without a score scores no domain', async () => {
    const db = newDb();
    const lines = [
      '{"source_url":"https://blog.example.org/q","target_url":"https://acme.test/x","lang":"fr"}',
      '{"source_url":"https://news.example.net/r","target_url":"https://acme.test/y","anchor":"hi","lang":"de","ip_address":"198.51.100.7","domain_score":40}',
      '{"source_url":"https://bad.example.net/s","target_url":"https://acme.test/z","is_lost":"maybe"}',
      '{"source_url":"https://bad.example.net/t","anchor":"no target"}',
      // example.net's latest link, without a domain_score: its domain keeps the 40 of line 2.
      '{"source_url":"https://news.example.net/s2","target_url":"https://acme.test/y2","last_seen_at":"2026-06-12T00:00:00"}',
    ];
    const run = await importInto(db, [file('links.ndjson', `${lines.join('\n')}\n`)]);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ imported: 3, rejected: 2, files: [{ format: 'service' }] });
    expect(run.stderr).toContain('links.ndjson:3: is_lost must be true or false, not "maybe"\n');
    expect(run.stderr).toContain('links.ndjson:4: missing field target_url\n');
    expect(run.stderr).toContain(
      'links.ndjson: fields left unknown, absent from 3 records: redirect_url, source_title, target_title, image_url, image_alt, source_size, ' +
        'external_links_count, internal_links_count, response_code, page_score, first_seen_at, source_domain, is_nofollow, is_ugc, ' +
        'is_sponsored, is_form, is_frame, is_image, is_sitewide_main, is_lost; from 2 records: anchor, ip_address, domain_score, last_seen_at; from 1 record: lang\n',
    );
    // One referring domain (example.net) scored by its links; example.org's only link has no score.
    expect(run.stderr).toContain("the links' domain scores given to those of their 1 referring domains without a domain record");
    const fields = run.summary.files[0]!.fields;
    expect(fields['source_url']).toEqual({ kind: 'mapped', columns: ['source_url'] });
    expect(fields['lang']).toEqual({ kind: 'mapped', columns: ['lang'], absent: ['lang'], absent_in: 1 });
    expect(fields['anchor']).toEqual({ kind: 'mapped', columns: ['anchor'], absent: ['anchor'], absent_in: 2 });
    expect(fields['is_lost']).toEqual({ kind: 'mapped', columns: ['is_lost'], absent: ['is_lost'], absent_in: 3 });
    expect(await links(db, KEYS)).toEqual([
      unknownBut({ source_url: 'https://blog.example.org/q', target_url: 'https://acme.test/x', lang: 'fr', source_domain: 'example.org' }),
      unknownBut({ source_url: 'https://news.example.net/r', target_url: 'https://acme.test/y', anchor: 'hi', lang: 'de', ip_address: '198.51.100.7', domain_score: 40, source_domain: 'example.net' }),
      // Its one date gives the other.
      unknownBut({ source_url: 'https://news.example.net/s2', target_url: 'https://acme.test/y2', first_seen_at: '2026-06-12T00:00:00', last_seen_at: '2026-06-12T00:00:00', source_domain: 'example.net' }),
    ]);
    const { tldts } = await loadServerDeps();
    const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
    try {
      // example.org: no record, so its score is unknown and not counted (docs/importing.md, "Unknown
      // values"); example.net: 40, not the 0 of its latest link's unknown score.
      expect(await store.scoreProfile(toTarget('acme.test', 'ROOT_DOMAIN', tldts)!)).toEqual([{ domain_score: 40, domains_count: 1 }]);
    } finally {
      await store.close();
    }
  });
});

describe('a header one letter off a format', () => {
  it('names the format and the column, in a few lines, and imports nothing', async () => {
    const db = newDb();
    const typo = file('typo.csv', 'Source ulr,Target url,Anchor,Nofollow\nhttps://a.test/,https://acme.test/,x,false\n');
    const run = await runCli(['import', typo, '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    // (A log's first line names the phase: "importing records...".)
    expect(run.stderr.slice(run.stderr.indexOf(typo))).toBe(
      `${typo}: CSV header (line 1) fits no format; the closest is Semrush backlinks export (semrush), whose columns differ:\n` +
        '  "Source ulr" is not a column of it; did you mean Source url?\n' +
        'Nothing was imported: 1 of 1 file cannot be read.\n',
    );
  });

  it('in a column that is not required: the file imports, and the report asks about the column not read', async () => {
    const db = newDb();
    const run = await importInto(db, [file('majestic-typo.csv', 'Source URL,Target URL,SourceTrustFlw,Anchor Text\nhttps://a.seven.test/,https://acme.test/,5,x\n')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 1, files: [{ format: 'majestic' }] });
    expect(run.stderr).toContain('  not read: "SourceTrustFlw" (did you mean SourceTrustFlow?)\n');
    expect(run.summary.files[0]!.fields['page_score']).toEqual({ kind: 'default', columns: [], absent: ['SourceTrustFlow'], absent_in: 1 });
    expect(await links(db, ['source_url', 'page_score'])).toEqual([{ source_url: 'https://a.seven.test/', page_score: 0 }]);
  });

  it('Semrush and Majestic both fit Source url and Target url alone: refused, named with --format; one more Semrush column decides', async () => {
    const db = newDb();
    const rows = 'https://a.test/,https://acme.test/\n';
    const both = file('urls.csv', `Source url,Target url\n${rows}`);
    const refused = await runCli(['import', both, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${both}: CSV header (line 1) fits several formats: semrush, majestic; name one with --format\n`);
    expect((await importInto(db, [both, '--format', 'majestic'])).summary).toMatchObject({ imported: 1, files: [{ format: 'majestic' }] });
    const semrush = await importInto(db, [file('urls-title.csv', `Source url,Target url,Source title\n${rows.replace('\n', ',Home\n')}`)]);
    expect(semrush.summary).toMatchObject({ imported: 1, files: [{ format: 'semrush' }] });
  });
});
