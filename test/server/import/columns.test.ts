/**
 * Every column of every import format, read in-process by `readImportFile`: tiny hand-written files
 * of each tool's layout, and for each the records written out in full by hand from the tables of
 * docs/importing.md (mapped, derived, default), the rows it must reject with their line and every
 * problem, and the rows it skips. Each value differs from its neighbours' (External links 7,
 * Internal links 3; Frame set where Form is not), so a column read for another field shows.
 */
import { describe, expect, it } from 'vitest';
import { ImportFileError, readImportFile, type FormatReport, type ImportFormat, type RejectedLine } from '../../../src/server/import/read-records.js';
import type { DomainInput, LinkInput } from '../../../src/server/store/inputs.js';

async function* chunked(chunks: readonly string[]): AsyncGenerator<string> {
  for (const chunk of chunks) yield chunk;
}

/** What a file reads as: links, domains, rejected and skipped rows, the format report. */
async function read(text: string, format: ImportFormat = 'csv', shape?: Parameters<typeof readImportFile>[1]['shape']) {
  const links: LinkInput[] = [];
  const domains: DomainInput[] = [];
  const rejected: RejectedLine[] = [];
  const skipped: RejectedLine[] = [];
  const reports: FormatReport[] = [];
  for await (const batch of readImportFile(chunked([text]), {
    format, shape, onReject: (r) => rejected.push(r), onSkip: (r) => skipped.push(r), onFormat: (r) => reports.push(r),
    // The registrable domain, for these hosts: the last two labels.
    domainOf: (host) => host.split('.').slice(-2).join('.'),
    seenAt: '2026-01-02T03:04:05',
  })) {
    if (batch.kind === 'links') links.push(...batch.rows);
    else domains.push(...batch.rows);
  }
  return { links, domains, rejected, skipped, format: reports.map((report) => report.format), headerLine: reports.map((report) => report.headerLine) };
}

/** A record of an export: every field the exports leave out at its documented default, then `fields`. */
const exported = (fields: Partial<LinkInput>): LinkInput => ({
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '', ip_address: '', lang: '',
  source_size: 0, external_links_count: 0, internal_links_count: 0, response_code: 200, page_score: 0, domain_score: 0, first_seen_at: '', last_seen_at: '',
  source_domain: '', is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false, ...fields,
});

const DATE = 'must be a date YYYY-MM-DD, with a time HH:MM:SS or not';
const BOOL = 'must be true or false';

describe('Semrush backlinks export', () => {
  const HEADER = 'Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link';
  /** A row by column: the cells of A, changed. */
  const A: Record<string, string> = {
    'Page ascore': '12.4', 'Source title': 'Title A', 'Source url': 'https://blog.one.test/a', 'Target url': 'https://acme.test/x', Anchor: 'anchor a',
    'External links': '7', 'Internal links': '3', Nofollow: 'TRUE', Sponsored: 'false', Ugc: '1', Text: 'true', Frame: 'false', Form: '0', Image: 'False',
    Sitewide: 'true', 'First seen': '2025-01-02', 'Last seen': '2025-03-04 05:06:07', 'New link': 'true', 'Lost link': 'false',
  };
  const row = (changes: Record<string, string>) => HEADER.split(',').map((name) => changes[name] ?? A[name]).join(',');
  const lines = [
    /* 1 */ HEADER,
    /* 2 */ row({}),
    // An image link: its anchor is its alt text; empty number cells read as 0.
    /* 3 */ row({ 'Page ascore': '', 'Source title': '', 'Source url': 'https://two.test/', Anchor: 'Logo alt', 'External links': '', 'Internal links': '0', Nofollow: '0',
      Sponsored: 'true', Ugc: '0', Frame: '1', Form: 'false', Image: 'true', 'First seen': '2024-12-31T23:59:59', 'Last seen': '2025-01-01', 'Lost link': 'True' }),
    /* 4 */ row({ 'Page ascore': '99.5', 'Source url': 'https://three.test/', Form: 'true', Nofollow: 'false', Ugc: 'false' }),
    /* 5 */ row({ Nofollow: 'yes' }),
    /* 6 */ row({ Nofollow: '' }),
    /* 7 */ row({ Sponsored: 'no', Form: '2' }),
    /* 8 */ row({ 'First seen': '2025-01-02T03:04:05Z' }),
    /* 9 */ row({ 'First seen': '2025-01-02 03:04' }),
    /* 10 */ row({ 'Last seen': '' }),
    /* 11 */ row({ 'Page ascore': '101' }),
    /* 12 */ row({ 'External links': '1.5' }),
    /* 13 */ `${row({})},extra`,
    /* 14 */ row({}).slice(0, row({}).lastIndexOf(',')),
    /* 15 */ row({ 'Last seen': '2025-02-29' }),
    /* 16 */ row({ 'Internal links': '-1' }),
  ];
  const common = { source_title: 'Title A', target_url: 'https://acme.test/x', page_score: 12, external_links_count: 7, internal_links_count: 3 };

  it('maps every column to its field, as docs/importing.md lists them', async () => {
    const result = await read(`${lines.join('\n')}\n`);
    expect(result.format).toEqual(['semrush']);
    expect(result.links).toEqual([
      exported({
        ...common, source_url: 'https://blog.one.test/a', anchor: 'anchor a', first_seen_at: '2025-01-02T00:00:00', last_seen_at: '2025-03-04T05:06:07',
        source_domain: 'one.test', is_nofollow: true, is_ugc: true,
      }),
      exported({
        target_url: 'https://acme.test/x', source_url: 'https://two.test/', image_alt: 'Logo alt', internal_links_count: 0, first_seen_at: '2024-12-31T23:59:59',
        last_seen_at: '2025-01-01T00:00:00', source_domain: 'two.test', is_sponsored: true, is_frame: true, is_image: true, is_lost: true,
      }),
      exported({
        ...common, page_score: 100, source_url: 'https://three.test/', anchor: 'anchor a', first_seen_at: '2025-01-02T00:00:00', last_seen_at: '2025-03-04T05:06:07',
        source_domain: 'three.test', is_form: true,
      }),
    ]);
    expect(result.rejected).toEqual([
      { line: 5, reason: `"Nofollow" ${BOOL}, not "yes"` },
      { line: 6, reason: `"Nofollow" ${BOOL}, not empty` },
      { line: 7, reason: `"Sponsored" ${BOOL}, not "no"; "Form" ${BOOL}, not "2"` },
      { line: 8, reason: `"First seen" ${DATE}, not "2025-01-02T03:04:05Z"` },
      { line: 9, reason: `"First seen" ${DATE}, not "2025-01-02 03:04"` },
      { line: 10, reason: `"Last seen" ${DATE}, not empty` },
      { line: 11, reason: '"Page ascore" must be a score from 0 to 100, not "101"' },
      { line: 12, reason: '"External links" must be a whole number, not "1.5"' },
      { line: 13, reason: 'expected 19 cells, found 20' },
      { line: 14, reason: 'expected 19 cells, found 18' },
      { line: 15, reason: `"Last seen" ${DATE}, not "2025-02-29"` },
      { line: 16, reason: '"Internal links" must be a whole number, not "-1"' },
    ]);
  });

  it('reads the older layout of 15 columns: Page score, and no Sponsored, Ugc or Lost link', async () => {
    const old = 'Page score,Page trust score,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Frame,Form,Image,Sitewide,First seen,Last seen\n' +
      '40,33,Old,https://www.old.test/p,https://acme.test/,old anchor,1,2,false,false,true,false,true,2020-05-06,2021-07-08\n';
    expect(await read(old)).toMatchObject({
      format: ['semrush'],
      rejected: [],
      links: [exported({
        source_url: 'https://www.old.test/p', target_url: 'https://acme.test/', anchor: 'old anchor', source_title: 'Old', page_score: 40, external_links_count: 1,
        internal_links_count: 2, first_seen_at: '2020-05-06T00:00:00', last_seen_at: '2021-07-08T00:00:00', source_domain: 'old.test', is_form: true,
      })],
    });
  });

  it('compares the header in any case, spaces around the names ignored', async () => {
    const header = HEADER.split(',').map((name) => ` ${name.toUpperCase()} `).join(',');
    const result = await read(`${header}\n${row({})}\n`);
    expect(result.format).toEqual(['semrush']);
    expect(result.links).toHaveLength(1);
    expect(result.links[0]!.page_score).toBe(12);
    expect(result.rejected).toEqual([]);
  });
});

describe('Ahrefs backlinks export', () => {
  const HEADER = [
    'Referring page title', 'Referring page URL', 'Language', 'Platform', 'Referring page HTTP code', 'Domain rating', 'UR', 'Domain traffic', 'Referring domains',
    'Linked domains', 'External links', 'Page traffic', 'Keywords', 'Target URL', 'Left context', 'Anchor', 'Right context', 'Redirect Chain URLs',
    'Redirect Chain status codes', 'Type', 'Is spam', 'Content', 'Nofollow', 'UGC', 'Sponsored', 'Rendered', 'Raw', 'Lost status', 'Drop reason',
    'Discovered status', 'First seen', 'Last seen', 'Lost', 'Author', 'Page type', 'Page category', 'Links in group',
  ];
  const A: Record<string, string> = {
    'Referring page title': 'Page one', 'Referring page URL': 'https://www.shop.one.test/a', Language: '"fr, en"', Platform: 'blog', 'Referring page HTTP code': '',
    'Domain rating': '45.5', UR: '3', 'Domain traffic': '11', 'Referring domains': '12', 'Linked domains': '13', 'External links': '9', 'Page traffic': '14',
    Keywords: '15', 'Target URL': 'https://acme.test/', 'Left context': 'left', Anchor: 'Pic', 'Right context': 'right',
    'Redirect Chain URLs': 'http://acme.test/old https://acme.test/mid', 'Redirect Chain status codes': '301 302', Type: 'IMAGE', 'Is spam': 'false',
    Content: 'true', Nofollow: '0', UGC: '1', Sponsored: 'false', Rendered: 'false', Raw: 'true', 'Lost status': '', 'Drop reason': '', 'Discovered status': '',
    'First seen': '2025-02-03 04:05:06', 'Last seen': '2025-02-04T00:00:00', Lost: '', Author: '', 'Page type': '', 'Page category': '', 'Links in group': '1',
  };
  const row = (changes: Record<string, string>) => HEADER.map((name) => changes[name] ?? A[name]).join(',');
  const lines = [
    /* 1 */ HEADER.join(','),
    /* 2 */ row({}),
    /* 3 */ row({ 'Referring page URL': 'https://two.test/', 'Referring page title': 'Page two', Language: '', 'Referring page HTTP code': '301', 'Domain rating': '0',
      UR: '', 'External links': '', Anchor: 'Sign up', 'Redirect Chain URLs': '', Type: 'Form', Nofollow: 'true', UGC: 'false', Sponsored: '1',
      Lost: '2025-06-01 00:00:00' }),
    /* 4 */ row({ 'Referring page URL': 'https://three.test/', Type: 'frame', Anchor: 'in a frame', 'Redirect Chain URLs': 'http://acme.test/a|http://acme.test/b', Lost: '2025-06-01' }),
    /* 5 */ row({ Lost: 'yesterday' }),
    /* 6 */ row({ 'Referring page HTTP code': '2xx' }),
    /* 7 */ row({ UGC: 'yes', 'Domain rating': '100.5' }),
  ];

  it('maps every column to its field, as docs/importing.md lists them', async () => {
    const result = await read(`${lines.join('\r\n')}\r\n`);
    expect(result.format).toEqual(['ahrefs']);
    expect(result.links).toEqual([
      exported({
        source_url: 'https://www.shop.one.test/a', target_url: 'https://acme.test/', redirect_url: 'http://acme.test/old', source_title: 'Page one', image_alt: 'Pic',
        lang: 'fr', external_links_count: 9, response_code: 200, page_score: 3, domain_score: 46, first_seen_at: '2025-02-03T04:05:06',
        last_seen_at: '2025-02-04T00:00:00', source_domain: 'one.test', is_ugc: true, is_image: true,
      }),
      exported({
        source_url: 'https://two.test/', target_url: 'https://acme.test/', anchor: 'Sign up', source_title: 'Page two', response_code: 301,
        first_seen_at: '2025-02-03T04:05:06', last_seen_at: '2025-02-04T00:00:00', source_domain: 'two.test', is_nofollow: true, is_sponsored: true, is_form: true,
        is_lost: true,
      }),
      exported({
        source_url: 'https://three.test/', target_url: 'https://acme.test/', redirect_url: 'http://acme.test/a', anchor: 'in a frame', source_title: 'Page one',
        lang: 'fr', external_links_count: 9, page_score: 3, domain_score: 46, first_seen_at: '2025-02-03T04:05:06', last_seen_at: '2025-02-04T00:00:00',
        source_domain: 'three.test', is_ugc: true, is_frame: true, is_lost: true,
      }),
    ]);
    expect(result.rejected).toEqual([
      { line: 5, reason: `"Lost" ${DATE}, not "yesterday"` },
      { line: 6, reason: '"Referring page HTTP code" must be a whole number, not "2xx"' },
      { line: 7, reason: `"Domain rating" must be a score from 0 to 100, not "100.5"; "UGC" ${BOOL}, not "yes"` },
    ]);
  });
});

describe('Majestic backlinks download', () => {
  const HEADER = 'Target URL,Source URL,Anchor Text,Source Crawl Date,Source First Found Date,FlagNoFollow,FlagImageLink,FlagRedirect,FlagFrame,FlagOldCrawl,FlagAltText,FlagMention,SourceCitationFlow,SourceTrustFlow,TargetCitationFlow,TargetTrustFlow,SourceTopicalTrustFlow_Topic_0,SourceTopicalTrustFlow_Value_0,RefDomainTopicalTrustFlow_Topic_0,RefDomainTopicalTrustFlow_Value_0';
  const lines = [
    /* 1 */ HEADER,
    // Flags: any value but empty, 0 and false (any case) sets one.
    /* 2 */ 'https://acme.test/m,https://www.maj.test/s,Img alt,2014-06-15,2014-03-17,false,Y,1,1,0,1,1,78,61,40,30,Computers,55,Computers,42',
    /* 3 */ 'https://acme.test/n,https://other.test/t,text link,2014-06-16 10:11:12,2013-01-02,TRUE,FALSE,,,x,,,5,,1,1,,,,',
    /* 4 */ 'https://acme.test/n,https://other.test/u,text link,2014-06-16,2013-01-02, 0 ,0,,False,,,,5,7,1,1,,,,',
    /* 5 */ 'https://acme.test/n,https://other.test/v,text link,,2013-01-02,,,,,,,,5,7,1,1,,,,',
  ];

  it('maps every column to its field, flags set by any value but empty, 0 and false', async () => {
    const result = await read(`${lines.join('\n')}\n`);
    expect(result.format).toEqual(['majestic']);
    expect(result.links).toEqual([
      exported({
        source_url: 'https://www.maj.test/s', target_url: 'https://acme.test/m', image_alt: 'Img alt', page_score: 61, first_seen_at: '2014-03-17T00:00:00',
        last_seen_at: '2014-06-15T00:00:00', source_domain: 'maj.test', is_image: true, is_frame: true,
      }),
      exported({
        source_url: 'https://other.test/t', target_url: 'https://acme.test/n', anchor: 'text link', first_seen_at: '2013-01-02T00:00:00',
        last_seen_at: '2014-06-16T10:11:12', source_domain: 'other.test', is_nofollow: true, is_lost: true,
      }),
      exported({
        source_url: 'https://other.test/u', target_url: 'https://acme.test/n', anchor: 'text link', page_score: 7, first_seen_at: '2013-01-02T00:00:00',
        last_seen_at: '2014-06-16T00:00:00', source_domain: 'other.test',
      }),
    ]);
    expect(result.rejected).toEqual([{ line: 5, reason: `"Source Crawl Date" ${DATE}, not empty` }]);
  });
});

describe('Screaming Frog inlinks/outlinks export', () => {
  const HEADER = '"Type","Source","Destination","Size (Bytes)","Alt Text","Anchor","Status Code","Status","Follow","Target","Rel","Path Type","Link Path","Link Position","Link Origin"';
  const lines = [
    /* 1 */ HEADER,
    /* 2 */ '"Hyperlink","https://blog.frog.test/p","https://acme.test/","100","","home","404","Not Found","true","","nofollow","Absolute","//a","Content","HTML"',
    /* 3 */ '"AHREF","https://blog.frog.test/q","https://acme.test/logo","0","logo","","200","OK","false","","UGC Sponsored","Absolute","//a","Content","HTML"',
    /* 4 */ '"Image","https://blog.frog.test/p","https://blog.frog.test/a.png","1200","Logo","","200","OK","true","","","Absolute","//img","Content","HTML"',
    /* 5 */ '"hyperlink","https://frog.test/r","https://acme.test/x","0","","plain","200","OK","TRUE","","","Absolute","//a","Content","HTML"',
    /* 6 */ '"Hyperlink","https://frog.test/s","https://acme.test/","0","","cut","200","OK","true"',
    /* 7 */ '"","https://frog.test/t","https://acme.test/","0","","none","200","OK","true","","","Absolute","//a","Content","HTML"',
    /* 8 */ '"HREF","https://frog.test/u","https://acme.test/","0","","x","200","OK","","","","Absolute","//a","Content","HTML"',
    /* 9 */ '"HREF","https://frog.test/u","https://acme.test/","0","","x","200","OK","true","","","Absolute","//a","Content","HTML","extra"',
    // A row too long is rejected, even one that would be skipped.
    /* 10 */ '"Image","https://blog.frog.test/p","https://blog.frog.test/b.png","1200","B","","200","OK","true","","","Absolute","//img","Content","HTML","extra"',
  ];

  it('maps every column to its field, skips what is not a link, dates links with the crawl time', async () => {
    const result = await read(`${lines.join('\r\n')}\r\n`);
    expect(result.format).toEqual(['screaming-frog']);
    const seen = { first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05' };
    expect(result.links).toEqual([
      exported({ ...seen, source_url: 'https://blog.frog.test/p', target_url: 'https://acme.test/', anchor: 'home', source_domain: 'frog.test', is_nofollow: true }),
      exported({
        ...seen, source_url: 'https://blog.frog.test/q', target_url: 'https://acme.test/logo', image_alt: 'logo', source_domain: 'frog.test', is_nofollow: true,
        is_ugc: true, is_sponsored: true, is_image: true,
      }),
      exported({ ...seen, source_url: 'https://frog.test/r', target_url: 'https://acme.test/x', anchor: 'plain', source_domain: 'frog.test' }),
    ]);
    expect(result.skipped).toEqual([
      { line: 4, reason: 'Type Image is not a link' },
      { line: 7, reason: 'Type (empty) is not a link' },
    ]);
    expect(result.rejected).toEqual([
      { line: 6, reason: 'expected 15 cells, found 9' },
      { line: 8, reason: `"Follow" ${BOOL}, not empty` },
      { line: 9, reason: 'expected 15 cells, found 16' },
      { line: 10, reason: 'expected 15 cells, found 16' },
    ]);
  });
});

describe('headers', () => {
  it('skips a title line above the header: the header is on line 2', async () => {
    const old = '"All Outlinks"\n"Type","Source","Destination","Alt Text","Anchor","Status Code","Status","Follow"\n"HREF","https://data.test/","https://acme.test/","","seo","200","","false"\n';
    const result = await read(old);
    expect(result).toMatchObject({ format: ['screaming-frog'], headerLine: [2], rejected: [], skipped: [] });
    expect(result.links).toEqual([
      exported({
        source_url: 'https://data.test/', target_url: 'https://acme.test/', anchor: 'seo', first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05',
        source_domain: 'data.test', is_nofollow: true,
      }),
    ]);
  });

  it('fails the whole file when its target URL column is missing, or a domains file has one it does not know', async () => {
    const semrush = 'Page ascore,Source title,Source url,Anchor,External links,Internal links,Nofollow,Frame,Form,First seen,Last seen\n';
    await expect(read(semrush)).rejects.toThrow(
      new ImportFileError('wrong_columns', 'CSV header (line 1) fits no format; the closest is Semrush backlinks export (semrush), whose columns differ:\n  "Target url" is missing', 1),
    );
    await expect(read('domain,domain_score,owner\na.example,1,me\n')).rejects.toThrow(
      new ImportFileError('wrong_columns', 'CSV header (line 1): unknown column owner in a domains file', 1),
    );
  });
});

describe('domains file', () => {
  it('CSV: any case, any order, ip_address and country as written; a score 0-100, required', async () => {
    const text = 'Country;Domain_Score;IP_Address;Domain\nFR;100;192.0.2.1;Ref.Example\nDE;0;192.0.2.2;zero.example\n;101;;big.example\n;;;empty.example\n;-1;;neg.example\n';
    const result = await read(text);
    expect(result.format).toEqual(['domains']);
    expect(result.domains).toEqual([
      { domain: 'ref.example', domain_score: 100, ip_address: '192.0.2.1', country: 'FR' },
      { domain: 'zero.example', domain_score: 0, ip_address: '192.0.2.2', country: 'DE' },
    ]);
    const score = '"Domain_Score" must be a whole number from 0 to 100, not';
    expect(result.rejected).toEqual([{ line: 4, reason: `${score} "101"` }, { line: 5, reason: `${score} empty` }, { line: 6, reason: `${score} "-1"` }]);
  });

  it('NDJSON: a score 0-100, strings or nothing for ip_address and country', async () => {
    const text = [
      '{"domain":"a.example","domain_score":100,"ip_address":"192.0.2.1","country":"FR"}',
      '{"domain":"b.example","domain_score":0}',
      '{"domain":"c.example","domain_score":101}',
      '{"domain":"d.example","domain_score":-1}',
      '{"domain":"e.example","domain_score":"5"}',
      '{"domain":"f.example","domain_score":5,"country":null}',
      '{"domain":"","domain_score":5}',
    ].join('\n');
    const result = await read(text, 'ndjson');
    expect(result.domains).toEqual([
      { domain: 'a.example', domain_score: 100, ip_address: '192.0.2.1', country: 'FR' },
      { domain: 'b.example', domain_score: 0, ip_address: '', country: '' },
    ]);
    const score = 'domain_score must be an integer from 0 to 100';
    expect(result.rejected).toEqual([
      { line: 3, reason: score },
      { line: 4, reason: score },
      { line: 5, reason: score },
      { line: 6, reason: 'country must be a string' },
      { line: 7, reason: 'domain must be a non-empty string' },
    ]);
  });
});

describe("the service's own record: an unknown value never becomes a value", () => {
  const LINK = {
    source_url: 'https://blog.example.org/p', target_url: 'https://example.com/', anchor: 'a', redirect_url: '', source_title: 't', target_title: '', image_url: '',
    image_alt: '', ip_address: '', lang: 'en', source_size: 1, external_links_count: 2, internal_links_count: 3, response_code: 200, page_score: 4, domain_score: 5,
    first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2025-01-02T00:00:00', source_domain: 'example.org', is_nofollow: false, is_ugc: false, is_sponsored: false,
    is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
  };
  const names = Object.keys(LINK);

  it('NDJSON: null, a number as a string, 1 or 0 for a boolean are rejected', async () => {
    const text = [
      JSON.stringify(LINK),
      JSON.stringify({ ...LINK, anchor: null }),
      JSON.stringify({ ...LINK, page_score: '4' }),
      JSON.stringify({ ...LINK, is_lost: 1 }),
      JSON.stringify({ ...LINK, is_ugc: 0 }),
      JSON.stringify({ ...LINK, first_seen_at: '2025-01-01' }),
      JSON.stringify({ ...LINK, page_score: null }),
    ].join('\n');
    const result = await read(text, 'ndjson');
    expect(result.links).toEqual([LINK]);
    expect(result.rejected).toEqual([
      { line: 2, reason: 'anchor must be a string, not null' },
      { line: 3, reason: 'page_score must be an integer from 0 to 9007199254740991, not "4"' },
      { line: 4, reason: 'is_lost must be true or false, not 1' },
      { line: 5, reason: 'is_ugc must be true or false, not 0' },
      { line: 6, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2025-01-01"' },
      { line: 7, reason: 'page_score must be an integer from 0 to 9007199254740991, not null' },
    ]);
  });

  it('CSV: an empty cell, 1, 0 or a date without a time are rejected where a number, boolean or timestamp is required', async () => {
    const row = (changes: Record<string, string>) => names.map((name) => changes[name] ?? String(LINK[name as keyof typeof LINK])).join(';');
    const text = [
      names.join(';'),
      row({}),
      row({ is_lost: '' }),
      row({ is_ugc: '1' }),
      row({ is_form: '0' }),
      row({ source_size: '' }),
      row({ first_seen_at: '' }),
      row({ last_seen_at: '2025-01-02' }),
      row({ is_image: 'yes' }),
    ].join('\n');
    const result = await read(text);
    expect(result.links).toEqual([LINK]);
    expect(result.rejected).toEqual([
      { line: 3, reason: 'is_lost must be true or false, not empty' },
      { line: 4, reason: 'is_ugc must be true or false, not "1"' },
      { line: 5, reason: 'is_form must be true or false, not "0"' },
      { line: 6, reason: 'source_size must be an integer from 0 to 9007199254740991, not empty' },
      { line: 7, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not empty' },
      { line: 8, reason: 'last_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2025-01-02"' },
      { line: 9, reason: 'is_image must be true or false, not "yes"' },
    ]);
  });
});

describe('exports reduced to their URL columns and a few others: each absent field at its unknown value', () => {
  it('Semrush: an Anchor with Image splits anchor and alt text; without Image, every anchor is a text link; one date gives the other', async () => {
    const withImage = await read('Source url,Target url,Anchor,Image,Last seen\nhttps://a.one.test/p,https://acme.test/,Logo,true,2025-05-06\nhttps://b.one.test/p,https://acme.test/,Text,false,2025-05-07\n');
    expect(withImage).toMatchObject({ format: ['semrush'], rejected: [] });
    expect(withImage.links).toEqual([
      exported({ source_url: 'https://a.one.test/p', target_url: 'https://acme.test/', image_alt: 'Logo', is_image: true, first_seen_at: '2025-05-06T00:00:00', last_seen_at: '2025-05-06T00:00:00', source_domain: 'one.test' }),
      exported({ source_url: 'https://b.one.test/p', target_url: 'https://acme.test/', anchor: 'Text', first_seen_at: '2025-05-07T00:00:00', last_seen_at: '2025-05-07T00:00:00', source_domain: 'one.test' }),
    ]);
    const noImage = await read('source url;target url;anchor\nhttps://a.one.test/p;https://acme.test/;Logo\n');
    expect(noImage.links).toEqual([
      exported({ source_url: 'https://a.one.test/p', target_url: 'https://acme.test/', anchor: 'Logo', first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05', source_domain: 'one.test' }),
    ]);
  });

  it('Ahrefs: Anchor without Type, and a bad value in a column that is present still rejects its row', async () => {
    const result = await read('Target URL\tReferring page URL\tAnchor\tUR\nhttps://acme.test/\thttps://ref.two.test/\tclick\t7.5\nhttps://acme.test/\thttps://ref.two.test/b\tx\tlots\n');
    expect(result.format).toEqual(['ahrefs']);
    expect(result.links).toEqual([
      exported({ source_url: 'https://ref.two.test/', target_url: 'https://acme.test/', anchor: 'click', page_score: 8, first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05', source_domain: 'two.test' }),
    ]);
    expect(result.rejected).toEqual([{ line: 3, reason: '"UR" must be a score from 0 to 100, not "lots"' }]);
  });

  it('Majestic: its crawl date alone gives both dates', async () => {
    const result = await read('SOURCE URL,TARGET URL,SOURCE CRAWL DATE,ANCHOR TEXT\nhttps://m.three.test/,https://acme.test/,2014-06-15,majestic\n');
    expect(result.format).toEqual(['majestic']);
    expect(result.links).toEqual([
      exported({ source_url: 'https://m.three.test/', target_url: 'https://acme.test/', anchor: 'majestic', first_seen_at: '2014-06-15T00:00:00', last_seen_at: '2014-06-15T00:00:00', source_domain: 'three.test' }),
    ]);
  });

  it('Screaming Frog: a Type column still skips what is not a link; without it every row is a link; Rel alone gives nofollow', async () => {
    const typed = await read('Source,Destination,Type\nhttps://f.four.test/,https://acme.test/,Hyperlink\nhttps://f.four.test/,https://f.four.test/a.css,CSS\n');
    expect(typed.skipped).toEqual([{ line: 3, reason: 'Type CSS is not a link' }]);
    expect(typed.links).toHaveLength(1);
    const untyped = await read('source,destination,rel\nhttps://f.four.test/,https://acme.test/,nofollow ugc\nhttps://f.four.test/,https://f.four.test/a.css,\n');
    expect(untyped).toMatchObject({ format: ['screaming-frog'], skipped: [], rejected: [] });
    expect(untyped.links).toEqual([
      exported({ source_url: 'https://f.four.test/', target_url: 'https://acme.test/', first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05', source_domain: 'four.test', is_nofollow: true, is_ugc: true }),
      exported({ source_url: 'https://f.four.test/', target_url: 'https://f.four.test/a.css', first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05', source_domain: 'four.test' }),
    ]);
  });

  it("a spreadsheet's sep= line names the delimiter and is skipped: the header is on line 2", async () => {
    for (const [sep, text] of [[';', 'Source url;Target url;Anchor\nhttps://s.five.test/;https://acme.test/;a, b\n'], [',', 'Source url,Target url,Anchor\nhttps://s.five.test/,https://acme.test/,a; b\n'], ['\t', 'Source url\tTarget url\tAnchor\nhttps://s.five.test/\thttps://acme.test/\ta; b, c\n']] as const) {
      const result = await read(`SEP=${sep}\r\n${text}`);
      expect(result, JSON.stringify(sep)).toMatchObject({ format: ['semrush'], headerLine: [2], rejected: [], links: [{ source_url: 'https://s.five.test/', anchor: sep === ';' ? 'a, b' : sep === ',' ? 'a; b' : 'a; b, c' }] });
    }
  });

  it("the service's record: a date absent is the record's other date, else the file's time; both in CSV and NDJSON", async () => {
    const csv = await read('source_url;target_url;last_seen_at\nhttps://x.six.test/;https://acme.test/;2025-04-05T06:07:08\n');
    expect(csv.links).toEqual([exported({ source_url: 'https://x.six.test/', target_url: 'https://acme.test/', first_seen_at: '2025-04-05T06:07:08', last_seen_at: '2025-04-05T06:07:08', source_domain: 'six.test' })]);
    const lines = [
      '{"source_url":"https://x.six.test/","target_url":"https://acme.test/","first_seen_at":"2025-01-01T00:00:00"}',
      '{"source_url":"https://y.six.test/","target_url":"https://acme.test/","source_domain":"y.six.test"}',
    ];
    const ndjson = await read(`${lines.join('\n')}\n`, 'ndjson');
    expect(ndjson.links).toEqual([
      exported({ source_url: 'https://x.six.test/', target_url: 'https://acme.test/', first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2025-01-01T00:00:00', source_domain: 'six.test' }),
      exported({ source_url: 'https://y.six.test/', target_url: 'https://acme.test/', first_seen_at: '2026-01-02T03:04:05', last_seen_at: '2026-01-02T03:04:05', source_domain: 'y.six.test' }),
    ]);
  });
});
