/**
 * The import reader: NDJSON and CSV exports of backlink records read chunk by chunk, bad records
 * rejected with the physical line they start on, the CSV the server writes read back exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backlinkRecord } from '../../../src/catalogue/records.js';
import { csvColumns, toCsv } from '../../../src/catalogue/csv.js';
import {
  formatOfFile,
  ImportFileError,
  isImportFileError,
  readImportFile,
  readLinkRecords,
  type FormatReport,
  type ImportFormat,
  type ReadOptions,
  type RejectedLine,
} from '../../../src/server/import/read-records.js';
import type { LinkInput } from '../../../src/server/sample/dataset.js';

const LINK: LinkInput = {
  source_url: 'https://blog.example.org/post-1',
  target_url: 'https://example.com/pricing',
  anchor: 'best seo tools',
  redirect_url: '',
  source_title: 'Ten SEO tools',
  target_title: '',
  image_url: '',
  image_alt: '',
  ip_address: '192.0.2.17',
  lang: 'en',
  source_size: 48213,
  external_links_count: 12,
  internal_links_count: 40,
  response_code: 200,
  page_score: 31,
  domain_score: 57,
  first_seen_at: '2023-04-01T08:30:00',
  last_seen_at: '2024-02-29T23:59:59',
  source_domain: 'example.org',
  is_nofollow: false,
  is_ugc: false,
  is_sponsored: true,
  is_form: false,
  is_frame: false,
  is_image: false,
  is_sitewide_main: true,
  is_lost: false,
};

/** LINK as one NDJSON line, written by hand (with an `is_new` to ignore). */
const LINK_JSON =
  '{"source_url":"https://blog.example.org/post-1","target_url":"https://example.com/pricing","anchor":"best seo tools",' +
  '"redirect_url":"","source_title":"Ten SEO tools","target_title":"","image_url":"","image_alt":"","ip_address":"192.0.2.17",' +
  '"lang":"en","source_size":48213,"external_links_count":12,"internal_links_count":40,"response_code":200,"page_score":31,' +
  '"domain_score":57,"first_seen_at":"2023-04-01T08:30:00","last_seen_at":"2024-02-29T23:59:59","source_domain":"example.org",' +
  '"is_nofollow":false,"is_ugc":false,"is_sponsored":true,"is_form":false,"is_frame":false,"is_image":false,' +
  '"is_sitewide_main":true,"is_new":true,"is_lost":false}';

/** The header the service writes for links (is_new included). */
const HEADER =
  'source_url;target_url;anchor;redirect_url;source_title;target_title;image_url;image_alt;ip_address;lang;source_size;' +
  'external_links_count;internal_links_count;response_code;page_score;domain_score;first_seen_at;last_seen_at;source_domain;' +
  'is_nofollow;is_ugc;is_sponsored;is_form;is_frame;is_image;is_sitewide_main;is_new;is_lost';
/** LINK as one CSV row under HEADER, written by hand. */
const LINK_CSV =
  'https://blog.example.org/post-1;https://example.com/pricing;best seo tools;;Ten SEO tools;;;;192.0.2.17;en;48213;12;40;200;31;57;' +
  '2023-04-01T08:30:00;2024-02-29T23:59:59;example.org;false;false;true;false;false;false;true;true;false';

/** LINK_CSV with the cell of `column` (0-based, in HEADER's order) replaced by `cell`. */
function csvRow(column: number, cell: string): string {
  const cells = LINK_CSV.split(';');
  cells[column] = cell;
  return cells.join(';');
}
const COLUMN = Object.fromEntries(HEADER.split(';').map((name, index) => [name, index])) as Record<string, number>;

/** LINK as an NDJSON line with some fields changed (`undefined` removes one). */
function jsonRow(changes: Record<string, unknown>): string {
  const row: Record<string, unknown> = { ...LINK, ...changes };
  for (const key of Object.keys(changes)) if (changes[key] === undefined) delete row[key];
  return JSON.stringify(row);
}

async function* chunked(chunks: readonly (Uint8Array | string)[]): AsyncGenerator<Uint8Array | string> {
  for (const chunk of chunks) yield chunk;
}

interface ReadResult {
  readonly links: LinkInput[];
  readonly batchSizes: number[];
  readonly rejected: RejectedLine[];
}

async function read(chunks: readonly (Uint8Array | string)[], format: ImportFormat, extra: Partial<ReadOptions> = {}): Promise<ReadResult> {
  const rejected: RejectedLine[] = [];
  const links: LinkInput[] = [];
  const batchSizes: number[] = [];
  for await (const batch of readLinkRecords(chunked(chunks), { format, onReject: (r) => rejected.push(r), ...extra })) {
    batchSizes.push(batch.length);
    links.push(...batch);
  }
  return { links, batchSizes, rejected };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** `data` cut at the given sorted offsets. */
function splitAt(data: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(data.subarray(start, offset));
    start = offset;
  }
  chunks.push(data.subarray(start));
  return chunks;
}

describe('NDJSON', () => {
  it('reads a record with every field, ignoring is_new', async () => {
    const result = await read([`${LINK_JSON}\n`], 'ndjson');
    expect(result).toEqual({ links: [LINK], batchSizes: [1], rejected: [] });
    expect(Object.keys(result.links[0]!)).not.toContain('is_new');
  });

  it('ignores is_new whatever its value, and reads a record without it', async () => {
    const result = await read([`${jsonRow({ is_new: 'maybe' })}\n${jsonRow({})}\n`], 'ndjson');
    expect(result.links).toEqual([LINK, LINK]);
    expect(result.rejected).toEqual([]);
  });

  it('accepts LF, CRLF, blank lines and a last line without newline', async () => {
    const text = `${LINK_JSON}\r\n\r\n${LINK_JSON}\n\n   \n${LINK_JSON}`;
    expect(await read([text], 'ndjson')).toEqual({ links: [LINK, LINK, LINK], batchSizes: [3], rejected: [] });
  });

  it('strips a UTF-8 BOM', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(`${LINK_JSON}\n`)]);
    expect((await read([withBom], 'ndjson')).links).toEqual([LINK]);
    expect((await read([withBom.subarray(0, 1), withBom.subarray(1, 2), withBom.subarray(2)], 'ndjson')).links).toEqual([LINK]);
    expect((await read([`\uFEFF${LINK_JSON}\n`], 'ndjson')).links).toEqual([LINK]);
  });

  it('rejects broken lines with their line number and reason, and reads the rest', async () => {
    const lines = [
      /* 1 */ LINK_JSON,
      /* 2 */ '{"source_url": "https://a.example/", }',
      /* 3 */ '',
      /* 4 */ jsonRow({ page_score: '31' }),
      /* 5 */ jsonRow({ anchor: undefined }),
      /* 6 */ jsonRow({ anchor: undefined, anchr: 'x' }),
      /* 7 */ jsonRow({ colour: 'red' }),
      /* 8 */ jsonRow({ first_seen_at: '2023-02-29T00:00:00' }),
      /* 9 */ jsonRow({ last_seen_at: '2023-04-01 08:30:00' }),
      /* 10 */ jsonRow({ source_size: -1 }),
      /* 11 */ jsonRow({ response_code: 200.5 }),
      /* 12 */ jsonRow({ domain_score: 2 ** 53 }),
      /* 13 */ jsonRow({ target_url: '/pricing' }),
      /* 14 */ jsonRow({ is_lost: 'false' }),
      /* 15 */ jsonRow({ anchor: null, is_ugc: 0 }),
      /* 16 */ '[1, 2]',
      /* 17 */ 'null',
      /* 18 */ LINK_JSON,
      /* 19 */ jsonRow({ first_seen_at: '2023-04-01' }),
      /* 20 */ '{"source_url":"https://blog.exa',
    ];
    const result = await read([lines.join('\r\n')], 'ndjson');
    // Line 5 lacks its anchor: no longer required, it is empty.
    expect(result.links).toEqual([LINK, { ...LINK, anchor: '' }, LINK]);
    expect(result.rejected[0]!.line).toBe(2);
    expect(result.rejected[0]!.reason).toMatch(/^invalid JSON: Expected double-quoted property name in JSON at position 37\b/);
    expect(result.rejected.slice(1, -1)).toEqual([
      { line: 4, reason: 'page_score must be an integer from 0 to 9007199254740991, not "31"' },
      { line: 6, reason: 'unknown field anchr' },
      { line: 7, reason: 'unknown field colour' },
      { line: 8, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-02-29T00:00:00"' },
      { line: 9, reason: 'last_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-04-01 08:30:00"' },
      { line: 10, reason: 'source_size must be an integer from 0 to 9007199254740991, not -1' },
      { line: 11, reason: 'response_code must be an integer from 0 to 9007199254740991, not 200.5' },
      { line: 12, reason: 'domain_score must be an integer from 0 to 9007199254740991, not 9007199254740992' },
      { line: 13, reason: 'target_url must be a URL with a host, not "/pricing"' },
      { line: 14, reason: 'is_lost must be true or false, not "false"' },
      { line: 15, reason: 'anchor must be a string, not null; is_ugc must be true or false, not 0' },
      { line: 16, reason: 'not a JSON object' },
      { line: 17, reason: 'not a JSON object' },
      { line: 19, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-04-01"' },
    ]);
    // The truncated last line: rejected, never half a record.
    // (V8's message: later versions add the line and column.)
    expect(result.rejected.at(-1)!.line).toBe(20);
    expect(result.rejected.at(-1)!.reason).toMatch(/^invalid JSON: Unterminated string in JSON at position 31\b/);
    expect(result.rejected).toHaveLength(16);
  });

  it('names the missing required fields (source_url, target_url) and every unknown one', async () => {
    const result = await read(['{"url":"https://example.com/","is_new":false}\n{"source_url":"https://a.example/","Target_url":"https://b.example/"}\n'], 'ndjson');
    expect(result.rejected).toEqual([
      { line: 1, reason: 'missing fields source_url, target_url; unknown field url' },
      { line: 2, reason: 'missing field target_url; unknown field Target_url' },
    ]);
  });

  it('quotes a bad value shortened to 40 characters: 40 whole, 41 cut to 39 and an ellipsis', async () => {
    const result = await read([`${jsonRow({ anchor: 7, first_seen_at: 'z'.repeat(40) })}\n${jsonRow({ anchor: ['y'.repeat(40)], first_seen_at: 'z'.repeat(41) })}\n`], 'ndjson');
    expect(result.rejected).toEqual([
      { line: 1, reason: `anchor must be a string, not 7; first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "${'z'.repeat(40)}"` },
      // Not a string: its JSON, 39 characters of it (`["` and 37 letters) and an ellipsis.
      { line: 2, reason: `anchor must be a string, not ["${'y'.repeat(37)}…; first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "${'z'.repeat(39)}…"` },
    ]);
    // A CSV cell the same way.
    const csv = await read([`${HEADER}\n${csvRow(COLUMN.page_score!, '7'.repeat(40) + 'x')}\n${csvRow(COLUMN.page_score!, '7'.repeat(39) + 'x')}\n`], 'csv');
    expect(csv.rejected).toEqual([
      { line: 2, reason: `page_score must be an integer from 0 to 9007199254740991, not "${'7'.repeat(39)}…"` },
      { line: 3, reason: `page_score must be an integer from 0 to 9007199254740991, not "${'7'.repeat(39)}x"` },
    ]);
  });

  it('rejects a line longer than 16 MiB characters without keeping it, and reads on', async () => {
    const piece = 'x'.repeat(1 << 20);
    const chunks = [`${LINK_JSON}\n{"anchor":"`, ...Array.from({ length: 17 }, () => piece), `"}\n${LINK_JSON}\n`];
    const result = await read(chunks, 'ndjson');
    expect(result.links).toEqual([LINK, LINK]);
    expect(result.rejected).toEqual([{ line: 2, reason: 'line longer than 16777216 characters' }]);
  });
});

describe('CSV', () => {
  it('reads a record with every field, ignoring is_new', async () => {
    const result = await read([`${HEADER}\r\n${LINK_CSV}\r\n`], 'csv');
    expect(result).toEqual({ links: [LINK], batchSizes: [1], rejected: [] });
    expect(Object.keys(result.links[0]!)).not.toContain('is_new');
  });

  it('reads a file without the is_new column, columns in any order', async () => {
    const names = HEADER.split(';');
    const cells = LINK_CSV.split(';');
    const order = names.map((_, index) => index).filter((index) => names[index] !== 'is_new').reverse();
    const text = `${order.map((i) => names[i]).join(';')}\n${order.map((i) => cells[i]).join(';')}\n`;
    expect(await read([text], 'csv')).toEqual({ links: [LINK], batchSizes: [1], rejected: [] });
  });

  it('reads back what the server writes: ;, quotes, CR, LF and unicode in cells', async () => {
    const links: LinkInput[] = [
      LINK,
      {
        ...LINK,
        anchor: 'say "hi"; then\r\nleave\nnow',
        source_title: 'naïve café; 日本語 😀',
        target_title: '"',
        image_alt: ';',
        redirect_url: 'https://example.com/old?a=1;b=2',
        is_image: true,
        is_lost: true,
      },
      { ...LINK, anchor: '\r', source_title: '\n', target_title: ' leading and trailing ', image_alt: '""' },
    ];
    const csv = toCsv(
      links.map((link, index) => ({ ...link, is_new: index % 2 === 0 })),
      csvColumns(backlinkRecord, Object.keys(backlinkRecord)),
    );
    expect(csv.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(await read([csv], 'csv')).toEqual({ links, batchSizes: [3], rejected: [] });
    expect(await read([bytes(csv)], 'csv')).toEqual({ links, batchSizes: [3], rejected: [] });
  });

  it('accepts LF as well as CRLF, skips blank lines and reads a last row without line end', async () => {
    const expected = { links: [LINK, LINK], batchSizes: [2], rejected: [] };
    expect(await read([`${HEADER}\n${LINK_CSV}\n${LINK_CSV}\n`], 'csv')).toEqual(expected);
    expect(await read([`${HEADER}\r\n${LINK_CSV}\r\n\r\n${LINK_CSV}`], 'csv')).toEqual(expected);
    expect(await read([`\n${HEADER}\n\n${LINK_CSV}\n${LINK_CSV}\n\n`], 'csv')).toEqual(expected);
  });

  it('strips a UTF-8 BOM', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(`${HEADER}\r\n${LINK_CSV}\r\n`)]);
    expect((await read([withBom], 'csv')).links).toEqual([LINK]);
    expect((await read([withBom.subarray(0, 2), withBom.subarray(2)], 'csv')).links).toEqual([LINK]);
    expect((await read(['\uFEFF', `${HEADER}\r\n${LINK_CSV}\r\n`], 'csv')).links).toEqual([LINK]);
  });

  it('rejects broken rows with the physical line they start on', async () => {
    const lines = [
      /* 1 */ HEADER,
      /* 2-4 */ csvRow(COLUMN.anchor!, '"three\r\nline\nanchor"'),
      /* 5 */ LINK_CSV.slice(0, LINK_CSV.lastIndexOf(';')),
      /* 6 */ `${LINK_CSV};extra`,
      /* 7 */ csvRow(COLUMN.is_lost!, 'TRUE'),
      /* 8 */ csvRow(COLUMN.source_size!, '-1'),
      /* 9 */ csvRow(COLUMN.page_score!, '+5'),
      /* 10 */ csvRow(COLUMN.response_code!, '200.0'),
      /* 11 */ csvRow(COLUMN.domain_score!, ''),
      /* 12 */ csvRow(COLUMN.external_links_count!, '9007199254740992'),
      /* 13 */ csvRow(COLUMN.first_seen_at!, '2023-04-31T00:00:00'),
      /* 14 */ csvRow(COLUMN.last_seen_at!, '2023-04-01T08:30'),
      /* 15 */ csvRow(COLUMN.target_url!, 'https:///pricing'),
      /* 16 */ csvRow(COLUMN.anchor!, 'say "hi"'),
      /* 17 */ csvRow(COLUMN.anchor!, '"quoted"tail'),
      /* 18 */ csvRow(COLUMN.anchor!, 'a\rb'),
      /* 19 */ csvRow(COLUMN.is_nofollow!, 'yes').replace(';2023-04-01T08:30:00;', ';2023-4-1;'),
      /* 20 */ LINK_CSV,
      /* 21-22 */ csvRow(COLUMN.anchor!, '"never\r\nclosed'),
    ];
    const result = await read([lines.join('\r\n')], 'csv');
    expect(result.links).toEqual([{ ...LINK, anchor: 'three\r\nline\nanchor' }, LINK]);
    expect(result.rejected).toEqual([
      { line: 5, reason: 'expected 28 cells, found 27' },
      { line: 6, reason: 'expected 28 cells, found 29' },
      { line: 7, reason: 'is_lost must be true or false, not "TRUE"' },
      { line: 8, reason: 'source_size must be an integer from 0 to 9007199254740991, not "-1"' },
      { line: 9, reason: 'page_score must be an integer from 0 to 9007199254740991, not "+5"' },
      { line: 10, reason: 'response_code must be an integer from 0 to 9007199254740991, not "200.0"' },
      { line: 11, reason: 'domain_score must be an integer from 0 to 9007199254740991, not empty' },
      { line: 12, reason: 'external_links_count must be an integer from 0 to 9007199254740991, not "9007199254740992"' },
      { line: 13, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-04-31T00:00:00"' },
      { line: 14, reason: 'last_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-04-01T08:30"' },
      { line: 15, reason: 'target_url must be a URL with a host, not "https:///pricing"' },
      { line: 16, reason: 'quote inside an unquoted cell' },
      { line: 17, reason: 'text after a closing quote' },
      { line: 18, reason: 'CR outside quotes not followed by LF' },
      { line: 19, reason: 'first_seen_at must be a timestamp YYYY-MM-DDTHH:MM:SS, not "2023-4-1"; is_nofollow must be true or false, not "yes"' },
      { line: 21, reason: 'unterminated quoted cell at end of file' },
    ]);
  });

  it('reports a broken record at the line it starts on, after quoted line ends in its earlier cells', async () => {
    const broken = csvRow(COLUMN.anchor!, '"two\nlines"').replace(';Ten SEO tools;', ';say "hi";');
    const lines = [/* 1 */ HEADER, /* 2-3 */ broken, /* 4 */ LINK_CSV, /* 5-7 */ csvRow(COLUMN.anchor!, '"a\r\nb\nc"').replace(';en;', ';"e"n;'), /* 8 */ LINK_CSV];
    const result = await read([lines.join('\r\n')], 'csv');
    expect(result.links).toEqual([LINK, LINK]);
    expect(result.rejected).toEqual([
      { line: 2, reason: 'quote inside an unquoted cell' },
      { line: 5, reason: 'text after a closing quote' },
    ]);
  });

  it('counts a final ; as one more, empty, cell', async () => {
    const result = await read([`${HEADER}\r\n${LINK_CSV};\r\n${LINK_CSV};`], 'csv');
    expect(result.rejected).toEqual([
      { line: 2, reason: 'expected 28 cells, found 29' },
      { line: 3, reason: 'expected 28 cells, found 29' },
    ]);
    await expect(read([`${HEADER};\r\n`], 'csv')).rejects.toThrow(
      new ImportFileError('wrong_columns', 'CSV header (line 1) fits no format; the closest is the service\'s own record, whose columns differ:\n  "" is not a column of it', 1),
    );
    // Spaces around a name are not part of it.
    const spaced = HEADER.replace(';anchor;', '; Anchor ;');
    expect(await read([`${spaced}\r\n${LINK_CSV}\r\n`], 'csv')).toEqual({ links: [LINK], batchSizes: [1], rejected: [] });
  });

  it('rejects a record longer than 16 MiB characters without keeping it, and reads on', async () => {
    const piece = 'x'.repeat(1 << 20);
    const chunks = [`${HEADER}\r\n${LINK_CSV}\r\n"`, ...Array.from({ length: 17 }, () => piece), `"\r\n${LINK_CSV}\r\n`];
    const result = await read(chunks, 'csv');
    expect(result.links).toEqual([LINK, LINK]);
    expect(result.rejected).toEqual([{ line: 3, reason: 'record longer than 16777216 characters' }]);
  });

  describe('header', () => {
    const fails = (text: string) => read([text], 'csv');

    const CLOSEST = "CSV header (line 1) fits no format; the closest is the service's own record, whose columns differ:";

    it('fails the whole file without target_url (or source_url), naming it', async () => {
      const noTarget = HEADER.replace(';target_url;', ';');
      await expect(fails(`${noTarget}\r\n`)).rejects.toThrow(new ImportFileError('wrong_columns', `${CLOSEST}\n  "target_url" is missing`, 1));
      const neither = HEADER.replace('source_url;target_url;', '');
      await expect(fails(`${neither}\r\n`)).rejects.toThrow(new ImportFileError('wrong_columns', `${CLOSEST}\n  "source_url" is missing\n  "target_url" is missing`, 1));
      // Both misspelt, and no other column: still close to the service's record (the first format on a tie).
      await expect(fails('sorce_url;target_ur\n')).rejects.toThrow(
        new ImportFileError('wrong_columns', `${CLOSEST}\n  "sorce_url" is not a column of it; did you mean source_url?\n  "target_ur" is not a column of it; did you mean target_url?`, 1),
      );
    });

    it('fails the whole file on an unknown (typo) column, naming the column it is one letter off', async () => {
      const rejected: RejectedLine[] = [];
      const typo = HEADER.replace(';anchor;', ';anchr;');
      const reading = readLinkRecords(chunked([`${typo}\r\n${LINK_CSV}\r\n${LINK_CSV}\r\n`]), { format: 'csv', onReject: (r) => rejected.push(r) });
      await expect(reading.next()).rejects.toThrow(new ImportFileError('wrong_columns', `${CLOSEST}\n  "anchr" is not a column of it; did you mean anchor?`, 1));
      expect(rejected).toEqual([]);
      // A required column one letter off: one line, not also "missing".
      await expect(fails(`${HEADER.replace('source_url', 'sorce_url')}\n`)).rejects.toThrow(
        new ImportFileError('wrong_columns', `${CLOSEST}\n  "sorce_url" is not a column of it; did you mean source_url?`, 1),
      );
    });

    it('names several columns, one a line; duplicates in any case', async () => {
      const header = HEADER.replace(';lang;', ';language;').replace(';ip_address;', ';ip;');
      await expect(fails(`${header}\n`)).rejects.toThrow(new ImportFileError('wrong_columns', `${CLOSEST}\n  "ip" is not a column of it\n  "language" is not a column of it`, 1));
      await expect(fails(`${HEADER.replace('is_lost', 'is_lost;IS_UGC')}\n`)).rejects.toThrow(new ImportFileError('wrong_columns', 'CSV header (line 1): duplicate column IS_UGC', 1));
    });

    it('lists five differing columns in full, and of six the first four and a count', async () => {
      const typos = (n: number) => HEADER.split(';').map((name, at) => (at >= 2 && at < 2 + n ? `${name}x` : name)).join(';');
      const first4 = [
        '"anchorx" is not a column of it; did you mean anchor?', '"redirect_urlx" is not a column of it; did you mean redirect_url?',
        '"source_titlex" is not a column of it; did you mean source_title?', '"target_titlex" is not a column of it; did you mean target_title?',
      ];
      await expect(fails(`${typos(5)}\n`)).rejects.toThrow(
        new ImportFileError('wrong_columns', [CLOSEST, ...first4, '"image_urlx" is not a column of it; did you mean image_url?'].join('\n  '), 1),
      );
      await expect(fails(`${typos(6)}\n`)).rejects.toThrow(new ImportFileError('wrong_columns', [CLOSEST, ...first4, 'and 2 more columns'].join('\n  '), 1));
    });

    it('reads a header without optional columns, in any case: each absent field gets its unknown value', async () => {
      const text = 'Target_URL;SOURCE_URL;Anchor;Page_Score\nhttps://example.com/pricing;https://blog.example.org/post-1;best;7\n';
      const { reports, ...result } = await readAny([text], { seenAt: '2026-02-03T04:05:06' });
      expect(result.rejected).toEqual([]);
      expect(result.links).toEqual([{
        source_url: 'https://blog.example.org/post-1', target_url: 'https://example.com/pricing', anchor: 'best', redirect_url: '', source_title: '', target_title: '',
        image_url: '', image_alt: '', ip_address: '', lang: '', source_size: 0, external_links_count: 0, internal_links_count: 0, response_code: 200, page_score: 7,
        domain_score: 0, first_seen_at: '2026-02-03T04:05:06', last_seen_at: '2026-02-03T04:05:06', source_domain: 'example.org', is_nofollow: false, is_ugc: false,
        is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
      }]);
      expect(reports[0]!.fields.filter((field) => field.kind === 'mapped').map((field) => [field.field, field.columns])).toEqual([
        ['source_url', ['SOURCE_URL']], ['target_url', ['Target_URL']], ['anchor', ['Anchor']], ['page_score', ['Page_Score']],
      ]);
      expect(reports[0]!.fields.filter((field) => field.absent.length > 0)).toHaveLength(23);
    });

    it('fails an empty file and a broken header line', async () => {
      await expect(fails('')).rejects.toThrow(new ImportFileError('no_header', 'CSV file has no header line'));
      await expect(fails('\r\n\r\n')).rejects.toThrow(new ImportFileError('no_header', 'CSV file has no header line'));
      await expect(fails(`\n"${HEADER}`)).rejects.toThrow(new ImportFileError('invalid_header', 'CSV header (line 2): unterminated quoted cell at end of file', 2));
    });

    it('fails with an ImportFileError: a code that says why, and the line of the header', async () => {
      const failure = async (text: string) => {
        const error: unknown = await fails(text).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isImportFileError(error)).toBe(true);
        expect(error).toBeInstanceOf(ImportFileError);
        const { name, code, line, message } = error as ImportFileError;
        return { name, code, line, message };
      };
      expect(await failure('\r\n')).toEqual({ name: 'ImportFileError', code: 'no_header', line: undefined, message: 'CSV file has no header line' });
      expect(await failure(`\r\n\r\n${HEADER.replace(';anchor;', ';an"chor;')}\r\n${LINK_CSV}\r\n`)).toEqual({
        name: 'ImportFileError',
        code: 'invalid_header',
        line: 3,
        message: 'CSV header (line 3): quote inside an unquoted cell',
      });
      expect(await failure(`\n${HEADER.replace(';anchor;', ';anchr;')}\n`)).toEqual({
        name: 'ImportFileError',
        code: 'wrong_columns',
        line: 2,
        message: 'CSV header (line 2) fits no format; the closest is the service\'s own record, whose columns differ:\n  "anchr" is not a column of it; did you mean anchor?',
      });
      expect(isImportFileError(new Error('CSV file has no header line'))).toBe(false);
      expect(isImportFileError(Object.assign(new Error('x'), { name: 'ImportFileError', code: 'no_header' }))).toBe(false);
    });
  });
});

describe('chunks', () => {
  const NDJSON = [
    LINK_JSON,
    jsonRow({ anchor: 'héllo wörld 😀 日本', source_title: '€ and 𝄞' }),
    '{"broken": ',
    jsonRow({ page_score: -3 }),
    '',
    jsonRow({ source_title: 'last 🎉' }),
  ].join('\r\n');
  const CSV = [
    HEADER,
    csvRow(COLUMN.anchor!, '"multi\r\nline; ""quoted"" 😀"'),
    csvRow(COLUMN.source_title!, 'é€𝄞 日本'),
    csvRow(COLUMN.is_lost!, 'nope'),
    LINK_CSV.slice(0, 40),
    '',
    csvRow(COLUMN.anchor!, 'a\rb'),
    csvRow(COLUMN.anchor!, '"quoted"tail'),
    csvRow(COLUMN.anchor!, 'say "hi"'),
    csvRow(COLUMN.anchor!, '"ends\nunterminated 🎉'),
  ].join('\r\n');
  const FILES: [ImportFormat, Uint8Array][] = [
    ['ndjson', new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(NDJSON)])],
    ['csv', new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(CSV)])],
  ];

  it('the test files hold good and bad records', async () => {
    const ndjson = await read([FILES[0]![1]], 'ndjson');
    expect(ndjson.links).toEqual([LINK, { ...LINK, anchor: 'héllo wörld 😀 日本', source_title: '€ and 𝄞' }, { ...LINK, source_title: 'last 🎉' }]);
    expect(ndjson.rejected.map((r) => r.line)).toEqual([3, 4]);
    const csv = await read([FILES[1]![1]], 'csv');
    expect(csv.links).toEqual([{ ...LINK, anchor: 'multi\r\nline; "quoted" 😀' }, { ...LINK, source_title: 'é€𝄞 日本' }]);
    expect(csv.rejected).toEqual([
      { line: 5, reason: 'is_lost must be true or false, not "nope"' },
      { line: 6, reason: 'expected 28 cells, found 2' },
      { line: 8, reason: 'CR outside quotes not followed by LF' },
      { line: 9, reason: 'text after a closing quote' },
      { line: 10, reason: 'quote inside an unquoted cell' },
      { line: 11, reason: 'unterminated quoted cell at end of file' },
    ]);
  });

  it.each(FILES)('%s: two chunks split at every byte offset read the same as one', async (format, data) => {
    const whole = await read([data], format);
    for (let offset = 0; offset <= data.length; offset++) {
      expect(await read(splitAt(data, [offset]), format)).toEqual(whole);
    }
  });

  it.each(FILES)('%s: many chunks split at random offsets read the same as one', async (format, data) => {
    const whole = await read([data], format);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 0, max: data.length }), { maxLength: 40 }), async (offsets) => {
        expect(await read(splitAt(data, [...offsets].sort((a, b) => a - b)), format)).toEqual(whole);
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it.each(FILES)('%s: string chunks read the same as bytes', async (format, data) => {
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(data);
    const pieces = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7));
    expect(await read(pieces, format)).toEqual(await read([data], format));
  });

  it('decodes a multi-byte character split across chunks', async () => {
    const data = bytes(`${jsonRow({ anchor: '😀€é' })}\n`);
    const start = data.indexOf(0xf0);
    for (let cut = start + 1; cut < start + 7; cut++) {
      const result = await read([data.subarray(0, cut), data.subarray(cut, cut + 1), data.subarray(cut + 1)], 'ndjson');
      expect(result.links).toEqual([{ ...LINK, anchor: '😀€é' }]);
    }
  });

  it('reports the bytes read after each chunk', async () => {
    const seen: number[] = [];
    await read(['ab\n', bytes('€\n'), 'é\n'], 'ndjson', { onBytes: (n) => seen.push(n) });
    expect(seen).toEqual([3, 7, 10]);
  });
});

describe('batches', () => {
  it('yields batches of batchSize and a last partial one', async () => {
    const text = `${LINK_JSON}\n`.repeat(12);
    expect((await read([text], 'ndjson', { batchSize: 5 })).batchSizes).toEqual([5, 5, 2]);
    expect((await read([text], 'ndjson', { batchSize: 4 })).batchSizes).toEqual([4, 4, 4]);
    expect((await read([text], 'ndjson', { batchSize: 1 })).batchSizes).toEqual(Array(12).fill(1));
  });

  it('counts only valid records, and batches 5000 by default', async () => {
    const text = `${LINK_JSON}\n{}\n`.repeat(5001);
    const result = await read([text], 'ndjson');
    expect(result.batchSizes).toEqual([5000, 1]);
    expect(result.rejected).toHaveLength(5001);
  });

  it('streams: the first batch comes before the input is read to the end', async () => {
    let chunksRead = 0;
    async function* endless(): AsyncGenerator<string> {
      yield `${HEADER}\r\n`;
      for (;;) {
        chunksRead++;
        yield `${LINK_CSV}\r\n`.repeat(10);
      }
    }
    for await (const batch of readLinkRecords(endless(), { format: 'csv', batchSize: 25, onReject: () => {} })) {
      expect(batch).toHaveLength(25);
      break;
    }
    expect(chunksRead).toBe(3);
  });

  it('refuses a batchSize that is not a positive integer', async () => {
    await expect(read([''], 'ndjson', { batchSize: 0 })).rejects.toThrow(RangeError);
    await expect(read([''], 'ndjson', { batchSize: 2.5 })).rejects.toThrow(RangeError);
  });
});

/** Everything {@link readImportFile} gives for a file. */
async function readAny(chunks: readonly (Uint8Array | string)[], options: Partial<Parameters<typeof readImportFile>[1]> = {}) {
  const rejected: RejectedLine[] = [];
  const skipped: RejectedLine[] = [];
  const reports: FormatReport[] = [];
  const links: LinkInput[] = [];
  const domains: unknown[] = [];
  for await (const batch of readImportFile(chunked(chunks), {
    format: 'csv', onReject: (r) => rejected.push(r), onSkip: (r) => skipped.push(r), onFormat: (r) => reports.push(r), domainOf: (host) => host.split('.').slice(-2).join('.'),
    seenAt: '2026-01-02T03:04:05', ...options,
  })) {
    if (batch.kind === 'links') links.push(...batch.rows);
    else domains.push(...batch.rows);
  }
  return { links, domains, rejected, skipped, reports };
}

describe('export formats', () => {
  // Ahrefs' header (percy-lcx/backlink-analyser, data/backlinks/bloomeroo-au.csv) with tabs, and one
  // row whose anchor holds a quoted line end, a tab and characters outside the BMP.
  const AHREFS_HEADER = [
    'Referring page title', 'Referring page URL', 'Language', 'Platform', 'Referring page HTTP code', 'Domain rating', 'UR', 'Domain traffic', 'Referring domains',
    'Linked domains', 'External links', 'Page traffic', 'Keywords', 'Target URL', 'Left context', 'Anchor', 'Right context', 'Redirect Chain URLs',
    'Redirect Chain status codes', 'Type', 'Is spam', 'Content', 'Nofollow', 'UGC', 'Sponsored', 'Rendered', 'Raw', 'Lost status', 'Drop reason',
    'Discovered status', 'First seen', 'Last seen', 'Lost', 'Author', 'Page type', 'Page category', 'Links in group',
  ].join('\t');
  const AHREFS_ROW = [
    'Blumen 🌷', 'https://www.shop.example.de/a', 'de', 'ecommerce', '200', '0.3', '99.5', '7', '1', '2', '3', '4', '5', 'https://acme.test/', '',
    '"zwei\r\nZeilen\tund 😀"', '', '', '', 'text', 'false', 'true', 'TRUE', 'False', 'false', 'false', 'true', '', '', 'linkfound',
    '2024-02-29 23:59:59', '2024-03-01 00:00:00', '', '', '', '', '1',
  ].join('\t');
  const AHREFS_LINK: LinkInput = {
    source_url: 'https://www.shop.example.de/a', target_url: 'https://acme.test/', anchor: 'zwei\r\nZeilen\tund 😀', redirect_url: '', source_title: 'Blumen 🌷',
    target_title: '', image_url: '', image_alt: '', ip_address: '', lang: 'de', source_size: 0, external_links_count: 3, internal_links_count: 0,
    response_code: 200, page_score: 100, domain_score: 0, first_seen_at: '2024-02-29T23:59:59', last_seen_at: '2024-03-01T00:00:00', source_domain: 'example.de',
    is_nofollow: true, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
  };
  const text = `${AHREFS_HEADER}\r\n${AHREFS_ROW}\r\n${AHREFS_ROW.replace('2024-02-29 23:59:59', '2023-02-29 10:00:00')}\r\n`;
  const utf16 = (bigEndian: boolean) => {
    const data = Buffer.from(`\uFEFF${text}`, 'utf16le');
    if (bigEndian) data.swap16();
    return new Uint8Array(data);
  };

  it.each([false, true])('Ahrefs as UTF-16 (big-endian: %s) with tabs, split at every byte offset, reads the same as whole', async (bigEndian) => {
    const data = utf16(bigEndian);
    const whole = await readAny([data]);
    expect(whole.links).toEqual([AHREFS_LINK]);
    // 2023 is not a leap year.
    expect(whole.rejected).toEqual([{ line: 4, reason: '"First seen" must be a date YYYY-MM-DD, with a time HH:MM:SS or not, not "2023-02-29 10:00:00"' }]);
    expect(whole.reports).toMatchObject([{ format: 'ahrefs', headerLine: 1, delimiter: '\t', encoding: bigEndian ? 'utf-16be' : 'utf-16le' }]);
    for (let offset = 0; offset <= data.length; offset++) expect(await readAny(splitAt(data, [offset]))).toEqual(whole);
  });

  it('reports every field of the record once, in the record\'s order, and the columns it does not read', async () => {
    const [report] = (await readAny([text])).reports;
    expect(report!.fields.map((field) => field.field)).toEqual(HEADER.split(';').filter((name) => name !== 'is_new'));
    expect(report!.ignored).toEqual([
      'Platform', 'Domain traffic', 'Referring domains', 'Linked domains', 'Page traffic', 'Keywords', 'Left context', 'Right context', 'Redirect Chain status codes',
      'Is spam', 'Content', 'Rendered', 'Raw', 'Lost status', 'Drop reason', 'Discovered status', 'Author', 'Page type', 'Page category', 'Links in group',
    ]);
  });

  it('finds the delimiter from the header: the service\'s record with commas or tabs reads as with semicolons', async () => {
    for (const delimiter of [',', '\t']) {
      const header = HEADER.replaceAll(';', delimiter);
      const row = LINK_CSV.split(';').join(delimiter);
      const result = await readAny([`${header}\n${row}\n`]);
      expect(result.links).toEqual([LINK]);
      expect(result.reports).toMatchObject([{ format: 'service', delimiter }]);
    }
  });

  it('skips a title line above the header, and rows a format says are not links', async () => {
    const old = '"All Inlinks"\n"Type","Source","Destination","Size (Bytes)","Alt Text","Anchor","Status Code","Status","Follow"\n' +
      '"HREF","http://www.3dids.com/","http://acme.test/","69207","","3Dids","200","OK","true"\n"CSS","http://www.3dids.com/","http://www.3dids.com/a.css","1","","","200","OK","true"\n';
    const result = await readAny([old]);
    expect(result.reports).toMatchObject([{ format: 'screaming-frog', headerLine: 2 }]);
    expect(result.skipped).toEqual([{ line: 4, reason: 'Type CSS is not a link' }]);
    expect(result.links).toMatchObject([{ source_url: 'http://www.3dids.com/', target_url: 'http://acme.test/', anchor: '3Dids', source_domain: '3dids.com', first_seen_at: '2026-01-02T03:04:05' }]);
  });

  it('refuses a header that fits two formats, and names them', async () => {
    const both = 'Source url,Target url,First seen,Nofollow,Type,Source,Destination,Follow,Anchor\n';
    const error = await readAny([both]).catch((caught: unknown) => caught);
    expect(isImportFileError(error) && error.code).toBe('ambiguous_format');
    expect((error as Error).message).toBe('CSV header (line 1) fits several formats: semrush, screaming-frog; name one with --format');
    // Named, it reads.
    expect((await readAny([both], { shape: 'screaming-frog' })).reports).toMatchObject([{ format: 'screaming-frog' }]);
    // One more column that only Semrush has: Semrush's (6 known columns against 5).
    expect((await readAny([both.replace('Anchor', 'Anchor,Image')])).reports).toMatchObject([{ format: 'semrush' }]);
  });

  it('refuses a named format whose header lacks a column it needs, naming the column one letter off', async () => {
    const error = await readAny(['Type,Source,Destinaton\n'], { shape: 'screaming-frog' }).catch((caught: unknown) => caught);
    expect(isImportFileError(error) && error.code).toBe('wrong_columns');
    expect((error as Error).message).toBe(
      'CSV header (line 1) is not a Screaming Frog inlinks/outlinks export (named with --format): its columns differ:\n  "Destinaton" is not a column of it; did you mean Destination?',
    );
    // Its source and target columns are enough.
    expect((await readAny(['Source,Destination\nhttps://a.test/p,https://acme.test/\n'], { shape: 'screaming-frog' })).links).toHaveLength(1);
  });

  it('skips the title line of a file whose format is named', async () => {
    const old = '"All Outlinks"\n"Type","Source","Destination","Alt Text","Anchor","Status Code","Status","Follow"\n"HREF","https://data-seo.fr/","https://acme.test/","","x","200","","true"\n';
    const result = await readAny([old], { shape: 'screaming-frog' });
    expect(result.reports).toMatchObject([{ format: 'screaming-frog', headerLine: 2 }]);
    expect(result.links).toHaveLength(1);
  });

  it('reads a CSV domains file strictly: a domain name and a whole score 0-100 required, no unknown column', async () => {
    const result = await readAny(['domain,domain_score,country\nReferrer.example,70,DE\n,5,\nx.example,4.5,\nsome where,1,\ny.example,,\n']);
    expect(result.domains).toEqual([{ domain: 'referrer.example', domain_score: 70, ip_address: '', country: 'DE' }]);
    expect(result.rejected).toEqual([
      { line: 3, reason: '"domain" must be a domain name, not empty' },
      { line: 4, reason: '"domain_score" must be a whole number from 0 to 100, not "4.5"' },
      { line: 5, reason: '"domain" must be a domain name, not "some where"' },
      { line: 6, reason: '"domain_score" must be a whole number from 0 to 100, not empty' },
    ]);
    // A cell of 40 characters is quoted whole; one of 41, shortened to its first 39 and an ellipsis.
    const long = await readAny([`domain,domain_score\nz.example,${'9'.repeat(40)}\nz.example,${'8'.repeat(41)}\n`]);
    expect(long.rejected).toEqual([
      { line: 2, reason: `"domain_score" must be a whole number from 0 to 100, not "${'9'.repeat(40)}"` },
      { line: 3, reason: `"domain_score" must be a whole number from 0 to 100, not "${'8'.repeat(39)}…"` },
    ]);
    const error = await readAny(['domain;domain_score;owner\n']).catch((caught: unknown) => caught);
    expect(isImportFileError(error) && error.code).toBe('wrong_columns');
    expect((error as Error).message).toBe('CSV header (line 1): unknown column owner in a domains file');
  });

  it('reads an NDJSON domains file, told apart by its first record; readLinkRecords refuses it', async () => {
    const lines = [
      '{"domain":"Referrer.example","domain_score":70,"ip_address":"192.0.2.9","country":"DE"}',
      '{"domain":"other.example","domain_score":12}',
      '{"domain":"bad.example","domain_score":100.5,"owner":"x"}',
      '{"domain_score":5}',
    ].join('\n');
    const result = await readAny([lines], { format: 'ndjson' });
    expect(result.domains).toEqual([
      { domain: 'referrer.example', domain_score: 70, ip_address: '192.0.2.9', country: 'DE' },
      { domain: 'other.example', domain_score: 12, ip_address: '', country: '' },
    ]);
    expect(result.rejected).toEqual([
      { line: 3, reason: 'domain_score must be an integer from 0 to 100; unknown field owner' },
      { line: 4, reason: 'missing field domain' },
    ]);
    expect(result.reports).toMatchObject([{ format: 'domains', produces: 'domains' }]);
    const error = await read([lines], 'ndjson').catch((caught: unknown) => caught);
    expect(isImportFileError(error) && error.code).toBe('wrong_columns');
  });
});

describe('formatOfFile', () => {
  it.each([
    ['links.csv', 'csv'],
    ['exports/LINKS.CSV', 'csv'],
    ['links.ndjson', 'ndjson'],
    ['acme-backlinks.TSV', 'csv'],
    ['C:\\exports\\links.jsonl', 'ndjson'],
    ['./a.b/links.json', 'ndjson'],
    ['links.csv.gz', undefined],
    ['links.txt', undefined],
    ['links', undefined],
    ['csv', undefined],
    ['exports.csv/links', undefined],
    ['.csv', undefined],
  ])('%s: %s', (path, format) => {
    expect(formatOfFile(path)).toBe(format);
  });
});

describe('a UTF-16 file without its byte order mark', () => {
  const text = 'source_url;target_url\nhttps://a.example/;https://b.example/\n';
  const refusal = async (data: Uint8Array) => (await read([data], 'csv').catch((caught: unknown) => caught)) as ImportFileError;

  it.each([false, true])('is told apart from other bytes with NULs (big-endian: %s), and refused', async (bigEndian) => {
    const data = Buffer.from(text, 'utf16le');
    if (bigEndian) data.swap16();
    expect(await refusal(data)).toEqual(new ImportFileError('not_text', 'not a text file: it looks like UTF-16 without a byte order mark: save it as UTF-8, or as UTF-16 with one'));
    // With its byte order mark, it reads.
    const marked = Buffer.from(`\uFEFF${text}`, 'utf16le');
    if (bigEndian) marked.swap16();
    expect((await read([marked], 'csv')).links).toHaveLength(1);
  });

  it('one character outside Latin-1 among its first 32 (no NUL in its pair) makes it bytes with NULs', async () => {
    const data = Buffer.from(`日${text}`, 'utf16le');
    expect((await refusal(data)).message).toBe('not a text file: it holds NUL bytes, which no text file has');
  });
});
