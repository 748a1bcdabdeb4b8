/**
 * Writes a large crawl export in the service's own record format, to time `backlink-query import`
 * (bench/RESULTS.md, "Import, 1M lines") and to kill an import midway (test/server/import/interrupted.test.ts).
 * Seeded and deterministic: the same arguments give the same bytes on every machine.
 *
 *   node --import tsx bench/import-file.ts LINES ndjson|csv FILE [--seed N]
 *
 * The links are the sample's (`makeLink`: anchors, rel flags, IPs, three years of first and last
 * seen, lost links) over a world sized like a real export of a link index: one target domain per
 * 500 lines (2,000 at 1M) with 4 hosts and 40 pages each, one referring domain per 20 lines (50,000
 * at 1M), both drawn with heavy tails (a few targets and referrers get most links). Each source page
 * is `https://[www.]REFERRER/SLUG-N`, N counting that referrer's pages, about two links a page, so
 * nearly every line is a link of its own (the few repeats of a link's identity are imported once,
 * the later line winning, as the import documents).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backlinkRecord } from '../src/catalogue/records.js';
import { toCsv } from '../src/catalogue/csv.js';
import type { LinkInput } from '../src/server/store/inputs.js';
import { makeLink } from '../src/server/sample/links.js';
import { Random, Zipf } from '../src/server/sample/random.js';
import type { Referrer, TargetSite } from '../src/server/sample/world.js';

/** The record's fields as the import reads them, in its CSV column order (`is_new` is not imported). */
export const EXPORT_FIELDS: readonly (keyof LinkInput)[] = Object.keys(backlinkRecord).filter((name) => name !== 'is_new') as (keyof LinkInput)[];

/** The instant the data is "as of". */
const NOW = Date.parse('2026-06-15T00:00:00Z');

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vo', 'zu', 'bel', 'cor', 'dan', 'fi', 'gor', 'hu', 'jin', 'kel', 'lum', 'nor', 'pa', 'qui', 'sen'];
const TLDS = ['com', 'com', 'com', 'net', 'org', 'io', 'co.uk', 'de', 'fr', 'info'];
const SECTIONS = ['blog', 'products', 'docs', 'news', 'guides', 'pricing', 'help'];
const COUNTRIES = ['US', 'US', 'US', 'GB', 'DE', 'FR', 'IN', 'BR', 'CA', 'AU'];
const LANGUAGE: Readonly<Record<string, string>> = { US: 'en', GB: 'en', CA: 'en', AU: 'en', IN: 'en', DE: 'de', FR: 'fr', BR: 'pt' };

/** A name made unique by its index (base-20 syllables), so any size needs no bookkeeping. */
function name(index: number, salt: number): string {
  let n = index * 7 + salt;
  let out = '';
  do {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return out;
}

/** The world of an export of `lines` lines. */
export function exportWorld(random: Random, lines: number) {
  const targetCount = Math.max(4, Math.round(lines / 500));
  const referrerCount = Math.max(20, Math.round(lines / 20));
  const targets: TargetSite[] = Array.from({ length: targetCount }, (_, i) => {
    const domain = `${name(i, 1)}-site.${TLDS[i % TLDS.length]}`;
    const brand = domain.split('.')[0]!;
    const paths = ['/', '/about', ...Array.from({ length: 38 }, (_, p) => `/${random.pick(SECTIONS)}/${name(p * 31 + i, 3)}`)];
    return { domain, brand, hosts: [domain, `www.${domain}`, `blog.${domain}`, `shop.${domain}`], paths, score: Math.max(5, 90 - Math.floor(i / 20)) };
  });
  const referrers: Referrer[] = Array.from({ length: referrerCount }, (_, i) => {
    const country = random.pick(COUNTRIES);
    return {
      domain: `${name(i, 2)}.${TLDS[(i * 3) % TLDS.length]}`,
      ip_address: `${1 + (i % 200)}.${(i >> 3) % 256}.${(i >> 11) % 256}.${random.int(1, 254)}`,
      country,
      domain_score: Math.min(100, Math.round(100 * Math.pow(random.next(), 2.2))),
      lang: LANGUAGE[country]!,
    };
  });
  return { targets, referrers, targetPick: new Zipf(targets.length, 1.0), referrerPick: new Zipf(referrers.length, 0.9), pathPick: new Zipf(40, 1.2) };
}

/**
 * The links of an export, line by line (memory stays flat whatever the count).
 *
 * @example
 * ```ts
 * for (const link of exportLinks(1_000, 1)) console.log(link.target_url);
 * ```
 */
export function* exportLinks(lines: number, seed = 1): Generator<LinkInput> {
  const random = new Random(seed);
  const world = exportWorld(random, lines);
  const pagesOf = new Uint32Array(world.referrers.length);
  for (let i = 0; i < lines; i++) {
    const target = world.targets[world.targetPick.draw(random)]!;
    const path = target.paths[world.pathPick.draw(random)]!;
    const r = world.referrerPick.draw(random);
    const from = world.referrers[r]!;
    const link = makeLink(random, target, path, from, NOW);
    // About two links per source page: a page of its own every other link of the referrer.
    const page = pagesOf[r]!++ >> 1;
    link.source_url = `${link.source_url}-${page.toString(36)}`;
    if (link.image_url !== '') link.image_url = `https://${from.domain}/images/${page.toString(36)}.png`;
    yield link;
  }
}

/** The export as text chunks of about `batch` lines. */
export function* exportChunks(lines: number, format: 'ndjson' | 'csv', seed = 1, batch = 5_000): Generator<string> {
  let rows: LinkInput[] = [];
  let first = true;
  const flush = () => {
    let text: string;
    if (format === 'ndjson') {
      text = rows.map((row) => `${JSON.stringify(row, EXPORT_FIELDS as string[])}\n`).join('');
    } else {
      text = toCsv(rows, EXPORT_FIELDS);
      if (!first) text = text.slice(text.indexOf('\r\n') + 2);
    }
    first = false;
    rows = [];
    return text;
  };
  for (const link of exportLinks(lines, seed)) {
    rows.push(link);
    if (rows.length === batch) yield flush();
  }
  if (rows.length > 0 || first) yield flush();
}

/** Writes an export of `lines` lines to `file`. */
export async function writeExport(file: string, lines: number, format: 'ndjson' | 'csv', seed = 1): Promise<void> {
  const out = createWriteStream(file);
  for (const chunk of exportChunks(lines, format, seed)) if (!out.write(chunk)) await once(out, 'drain');
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const [linesArg, format, file] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--seed');
  const seedAt = process.argv.indexOf('--seed');
  const seed = seedAt === -1 ? 1 : Number(process.argv[seedAt + 1]);
  const lines = Number(linesArg);
  if (!Number.isSafeInteger(lines) || lines < 0 || (format !== 'ndjson' && format !== 'csv') || !file || !Number.isSafeInteger(seed)) {
    process.stderr.write('Usage: node --import tsx bench/import-file.ts LINES ndjson|csv FILE [--seed N]\n');
    process.exit(2);
  }
  const started = performance.now();
  await writeExport(file, lines, format, seed);
  process.stderr.write(`wrote ${lines.toLocaleString('en-US')} ${format} lines to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
