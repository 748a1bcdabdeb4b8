/**
 * The import reader beside the CSV parser it replaced, in the same run: csv-parse alone (records
 * of strings, with the header's names) reading the same text.
 * - The service's own CSV: 50,000 links rows, `;` between cells. Our reader also checks and types
 *   every cell, keeps each record's line and reads in chunks in constant memory.
 * - A Semrush backlinks export: 50,000 rows, `,` between cells, read through the table of
 *   formats (each field mapped, derived or defaulted, the source's registrable domain derived).
 * Goal: ratio <= 1 (the reader replaced csv-parse for being slower, issue 23: docs/design-import.md,
 * section "Speed").
 *
 * Run alone: `npx tsx bench/import.bench.ts`
 */
import { parse as csvParse } from 'csv-parse/sync';
import { toCsv } from '../src/catalogue/csv.js';
import { IMPORT_FIELDS, readImportFile } from '../src/server/import/read-records.js';
import { comparePairedAsync, printRatios, type BenchRatio } from './harness.js';

const ROWS = 50_000;
const CHUNK = 64 * 1024;

/** The service's CSV of `rows` links, as `links --format csv` writes it (values varied by row, some quoted). */
function serviceCsv(rows: number): string {
  const links = Array.from({ length: rows }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    return {
      source_url: `https://blog${i % 5000}.site${i % 900}.example/post/${i}`, target_url: `https://www.acme.example/page/${i % 300}`,
      anchor: i % 10 === 0 ? `anchor; with "quotes" ${i}` : `anchor ${i}`, redirect_url: '', source_title: `Post ${i}`, target_title: '', image_url: '',
      image_alt: '', ip_address: `198.51.${i % 250}.${i % 200}`, lang: 'en', source_size: 1000 + i, external_links_count: i % 50, internal_links_count: i % 400,
      response_code: 200, page_score: i % 101, domain_score: i % 97, first_seen_at: `2024-05-${day}T10:00:00`, last_seen_at: `2025-06-${day}T10:00:00`,
      source_domain: `site${i % 900}.example`, is_nofollow: i % 3 === 0, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: i % 7 === 0,
      is_sitewide_main: false, is_lost: i % 11 === 0,
    };
  });
  return toCsv(links, [...IMPORT_FIELDS]);
}

/** A Semrush export of `rows` rows (the 19 columns of a real export, values varied by row). */
function semrushCsv(rows: number): string {
  const lines = ['Page ascore,Source title,Source url,Target url,Anchor,External links,Internal links,Nofollow,Sponsored,Ugc,Text,Frame,Form,Image,Sitewide,First seen,Last seen,New link,Lost link'];
  for (let i = 0; i < rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(
      `${i % 101},"Post ${i}, a title",https://blog${i % 5000}.site${i % 900}.example/post/${i},https://www.acme.example/page/${i % 300},"anchor ""${i}""",${i % 50},${i % 400},` +
        `${i % 3 === 0},false,false,true,false,false,${i % 7 === 0},false,2024-05-${day},2025-06-${day},false,${i % 11 === 0}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Reads `text` in chunks of bytes as a file stream would; the number of records. */
async function readAll(bytes: Buffer): Promise<number> {
  let records = 0;
  const chunks = async function* () {
    for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
  };
  for await (const batch of readImportFile(chunks(), { format: 'csv', onReject: () => { throw new Error('a bench row was rejected'); } })) records += batch.rows.length;
  return records;
}

async function pair(name: string, text: string, delimiter: string): Promise<BenchRatio> {
  const bytes = Buffer.from(text);
  const ours = () => readAll(bytes);
  const baseline = async () => (csvParse(text, { delimiter, columns: true, skip_empty_lines: true }) as unknown[]).length;
  if ((await ours()) !== ROWS || (await baseline()) !== ROWS) throw new Error(`${name}: the readers disagree on the number of rows`);
  return comparePairedAsync(name, ours, baseline, { calls: 1, pairs: 9, warmupMs: 0, bytes: bytes.length, goal: 1 });
}

/** The import group of `npm run bench`. */
export async function runImportBench(): Promise<BenchRatio[]> {
  return [
    await pair(`Import reader, the service's CSV, ${ROWS.toLocaleString('en-US')} rows (typed records vs csv-parse alone)`, serviceCsv(ROWS), ';'),
    await pair(`Import reader, a Semrush export, ${ROWS.toLocaleString('en-US')} rows (mapped records vs csv-parse alone)`, semrushCsv(ROWS), ','),
  ];
}

// Run alone (not when bundled into the lead's runner, where import.meta.url is the runner's).
if (/import\.bench\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) printRatios('Import reader vs csv-parse alone (ratio = our time / baseline time)', await runImportBench());
