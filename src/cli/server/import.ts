/**
 * `backlink-query import`: loads links (the service's own records, or the CSV exports of SEO tools
 * and crawlers) and domains files into the store, streaming in batches through the store's bulk
 * writer, then brings the rollups of every touched domain up to date. Broken lines are reported
 * and skipped, never loaded in part; importing the same file twice changes nothing.
 *
 * @module
 * @internal
 */
import { accessSync, constants, createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import {
  DerivedDomains, EXPORT_FORMAT_NAMES, formatOfFile, IMPORT_FORMAT_NAMES, importTemplate, readImportFile, type DomainParser, type ExportFormatName,
  type FieldKind, type FormatReport, type GraphWriter, type ImportFormat, type LinkInput, type RejectedLine, type Store, type StoreLocation,
} from '../../server/index.js';
import { describeLocation } from './location.js';
import { BoundedCache, ENTRY_BYTES, textBytes } from '../../shared/bounded-cache.js';
import { isTimestampLiteral } from '../../validate/timestamp.js';
import { integerOption, parseCommandArgs, stringOption, UsageError, type OptionTable } from '../args.js';
import { EXIT, type CliIo, type Command } from '../command.js';
import { finishPhases, phaseProgress } from '../progress.js';
import { painter } from '../style.js';
import { suggest } from '../../shared/suggest.js';
import {
  DATABASE_OPTIONS,
  databaseOptionsHelp,
  describeStoreError,
  explainStoreError,
  loadDepsOrExplain,
  locationOf,
  MEMORY_LIMIT_OPTION,
  memoryLimitHelp,
  loadStoreOptions,
  openStoreOrExplain,
} from './database.js';

/** Rejected lines printed on stderr before the rest are only counted (all go to --rejects). */
const SHOWN_REJECTS = 20;
const FORMAT_NAMES = IMPORT_FORMAT_NAMES;

const HELP = `Usage: backlink-query import FILE... [--format F] [--db FILE | --database-url URL] [--rejects FILE] [--seen-at TIME]
       backlink-query import --template ndjson|csv

Loads links into the store from:
  - the service's own backlink records: one JSON object per line (NDJSON), or CSV as the service
    writes it (a header of field names, ';' between cells);
  - CSV exports of Semrush (backlinks), Ahrefs (backlinks), Majestic (backlinks download) and
    Screaming Frog (all inlinks or outlinks), found from the header: the fields they lack are
    derived from their columns (domains from URLs, nofollow from rel) or defaulted, and the
    import prints, per file, where each field came from;
  - domains files (domain, domain_score, and ip_address, country if known; NDJSON or CSV): the
    referring domains' (and targets') own score, IP address and country.
Only the source and target URL columns are required, in every format: a field whose column (or
NDJSON key) is absent is left unknown (empty, 0 or false; dates: --seen-at), and the import names
those fields. CSV: columns in any order and case, ';', ',' or tabs between cells, UTF-8 or UTF-16
with a byte order mark.
A link's domain_score (the service's records, Ahrefs' Domain rating) also gives its referring
domain a score, unless that domain has a record of its own. A link is identified by its
source_url, target_url, anchor and image_url: importing it again replaces it, so importing the
same file twice changes nothing. Lines that are not valid records are reported with their line
number and skipped; the others are imported. Rollups of the touched domains are updated at the end.
One command is one load: a file that cannot be read (no header, not the format named) stops it
before anything is written, and each such file is named with what is wrong. An import into the
embedded store, SQLite or PostgreSQL is all or nothing: stopped midway (Ctrl+C, a kill,
--max-rejects), it leaves the database as it was; on ClickHouse, run the same command again.
Every format, field, default and source: docs/importing.md (in the package), or --template.

Options:
  --format F           ${FORMAT_NAMES.join(', ')}
                       (default: ndjson for .ndjson/.jsonl/.json; for .csv and .tsv, the format
                       the header names)
${databaseOptionsHelp(undefined)}
  --rejects FILE       write every rejected line as NDJSON {"file","line","reason"}
  --max-rejects N      stop the load, importing nothing, when more than N lines are rejected
  --seen-at TIME       first and last seen time of the links of files without dates (Screaming
                       Frog, a file without its date columns), YYYY-MM-DDTHH:MM:SS UTC (default:
                       each file's modification time)
  --batch N            records per write (default 2000)
${memoryLimitHelp('the import')}
  --template F         print a one-record file in format F (ndjson or csv) to start from, and exit

Exit status: 0 all lines imported; 1 some lines rejected (the rest imported) or a file unreadable; 2 usage.
`;

const OPTIONS = {
  format: { type: 'string' }, ...DATABASE_OPTIONS, rejects: { type: 'string' }, 'max-rejects': { type: 'string' }, 'seen-at': { type: 'string' }, batch: { type: 'string' }, ...MEMORY_LIMIT_OPTION,
  template: { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies OptionTable;

/** How one file is read: its syntax, and the export format when named. */
interface FileFormat {
  readonly syntax: ImportFormat;
  readonly shape: ExportFormatName | undefined;
}

/** The `import` command. @internal */
export const importCommand: Command = {
  name: 'import',
  summary: 'Import links (the service\'s records, or Semrush, Ahrefs, Majestic, Screaming Frog exports) and domains into the store',
  help: HELP,
  options: OPTIONS,
  describeError: describeStoreError,
  async run(args, io) {
    const { values: o, positionals: files } = parseCommandArgs(args, OPTIONS);
    if (o['help']) return io.stdout.write(HELP), EXIT.ok;
    const template = stringOption(o, 'template');
    if (template !== undefined) {
      if (template !== 'ndjson' && template !== 'csv') throw new UsageError('--template must be ndjson or csv.');
      if (files.length > 0) throw new UsageError('--template prints a file to start from; it imports nothing: name no file.');
      return io.stdout.write(importTemplate(template)), EXIT.ok;
    }
    if (files.length === 0) throw new UsageError('Name at least one file to import.');
    const forced = stringOption(o, 'format');
    if (forced !== undefined && !FORMAT_NAMES.includes(forced)) throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}.`);
    const seenAt = stringOption(o, 'seen-at');
    if (seenAt !== undefined && !(seenAt.length === 19 && isTimestampLiteral(seenAt))) throw new UsageError('--seen-at must be a time YYYY-MM-DDTHH:MM:SS (UTC).');
    const batchSize = integerOption(o, 'batch', 1) ?? 2_000;
    const maxRejects = integerOption(o, 'max-rejects', 0);
    const formats: FileFormat[] = [];
    for (const file of files) {
      // A tool's export is CSV; a domains file may be NDJSON too.
      const syntax = forced === undefined || (forced === 'domains' && formatOfFile(file) === 'ndjson') ? formatOfFile(file) : forced === 'ndjson' ? 'ndjson' : 'csv';
      if (!syntax) throw new UsageError(`Cannot tell the format of ${file} from its name; pass --format ndjson or --format csv.`);
      formats.push({ syntax, shape: EXPORT_FORMAT_NAMES.find((name) => name === forced) });
    }
    // Never the sample by default: serve --sample makes it, and may make it again (issue 29).
    const location = locationOf(o, io.env, undefined, 'import');
    const storeOptions = loadStoreOptions(o, location.kind);
    const deps = await loadDepsOrExplain(io, 'import', location);
    if (!deps) return EXIT.failure;
    const store = await openStoreOrExplain(io, location, deps.tldts, storeOptions);
    if (!store) return EXIT.unavailable;
    const rejectsPath = stringOption(o, 'rejects');
    const rejectsFile = rejectsPath === undefined ? undefined : createWriteStream(rejectsPath);
    const domainOf = registrableDomains(deps.tldts);
    try {
      const atomic = location.kind !== 'clickhouse';
      return await importFiles(io, { store, files, formats, batchSize, maxRejects, rejectsFile, target: describeLocation(location), seenAt, domainOf, atomic });
    } catch (error) {
      if (!explainStoreError(io, location, error)) throw error;
      return EXIT.failure;
    } finally {
      await store.close();
      if (rejectsFile) await new Promise<void>((resolve) => rejectsFile.end(resolve));
    }
  },
};

/** The registrable domain of a host (the host itself when it has none), remembered: a file meets the same hosts again and again. */
function registrableDomains(parser: DomainParser): (host: string) => string {
  // Some hundred thousand hosts of ordinary length.
  const known = new BoundedCache<string, string>(16 * 2 ** 20, (domain, host) => ENTRY_BYTES + textBytes(host) + textBytes(domain));
  return (host) => {
    let domain = known.get(host);
    if (domain === undefined) known.set(host, (domain = parser.getDomain(host) ?? host));
    return domain;
  };
}

/**
 * What a file was read as, on stderr: the format, then where each field came from, and the fields
 * left unknown because the file lacks their column. For the service's own record, whose fields
 * are read as they are, only the fields its header lacks (nothing when it has them all).
 */
function describeFormat(file: string, report: FormatReport): string {
  const where = report.headerLine === undefined ? '' : ` (header on line ${report.headerLine}, ${DELIMITER_NAMES[report.delimiter!] ?? report.delimiter} between cells, ${report.encoding.toUpperCase()})`;
  const absent = report.fields.filter((field) => field.absent.length > 0);
  if (report.format === 'service') return absent.length === 0 ? '' : `${file}: ${report.title}${where}\n  ${ABSENT_LINE}: ${absent.map((field) => field.field).join(', ')}\n`;
  const lines = [`${file}: ${report.title}${where}`];
  const width = Math.max(...report.fields.map((field) => field.field.length));
  for (const field of report.fields) {
    const from = field.columns.length === 0 ? '' : ` from ${field.columns.map((column) => JSON.stringify(column)).join(', ')}`;
    lines.push(`  ${field.field.padEnd(width)}  ${field.kind}${from}: ${field.note}`);
  }
  // A column not read that is a few letters off one the file lacks is likely that one, misspelt.
  const lacked = absent.flatMap((field) => field.absent);
  const hint = (column: string) => {
    const near = lacked.length === 0 ? undefined : suggest(column, lacked, { anyCase: true });
    return near === undefined ? '' : ` (did you mean ${near}?)`;
  };
  if (report.ignored.length > 0) lines.push(`  not read: ${report.ignored.map((column) => `${JSON.stringify(column)}${hint(column)}`).join(', ')}`);
  if (absent.length > 0) lines.push(`  ${ABSENT_LINE}: ${absent.map((field) => `${field.field} (${field.absent.map((column) => JSON.stringify(column)).join(', ')})`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

const ABSENT_LINE = 'left unknown, their column absent';

/** The fields an NDJSON file's records lacked, on stderr: fields absent from as many records on one line. */
function describeAbsent(file: string, counts: Readonly<Record<string, number>>): string {
  const byCount = new Map<number, string[]>();
  for (const [field, count] of Object.entries(counts)) byCount.set(count, [...(byCount.get(count) ?? []), field]);
  const groups = [...byCount].sort(([a], [b]) => b - a).map(([count, fields]) => `from ${count.toLocaleString('en-US')} record${count === 1 ? '' : 's'}: ${fields.join(', ')}`);
  return `${file}: fields left unknown, absent ${groups.join('; ')}\n`;
}

const DELIMITER_NAMES: Readonly<Record<string, string>> = { ';': "';'", ',': "','", '\t': 'tabs' };

/** Where a field of a file came from; `absent`: the columns (NDJSON: the key) the file lacked for it, and `absent_in`: the imported records that got its unknown value so. */
interface FieldResult {
  readonly kind: FieldKind;
  readonly columns: readonly string[];
  absent?: readonly string[];
  absent_in?: number;
}

/** What one file gave, and where each field came from. */
interface FileResult {
  readonly file: string;
  format: string | undefined;
  fields: Record<string, FieldResult> | undefined;
  imported: number;
  domain_records: number;
  rejected: number;
  skipped: number;
}

async function importFiles(
  io: CliIo,
  job: {
    store: Store;
    files: readonly string[];
    formats: readonly FileFormat[];
    batchSize: number;
    /** Stop the load when more lines than this are rejected. */
    maxRejects: number | undefined;
    rejectsFile: WriteStream | undefined;
    target: string;
    seenAt: string | undefined;
    domainOf: (host: string) => string;
    /** Whether the store's load is one transaction (every store but ClickHouse). */
    atomic: boolean;
  },
): Promise<number> {
  const started = performance.now();
  // Phases: the files read and written in batches, then the store's finish (indexes, rollups, the rest).
  const bar = phaseProgress(io.stderr, { paint: painter(io.stderr, io.env) });
  const finish = finishPhases(bar);
  bar.phase('importing records', 'bytes');
  // Stopped midway, the load is rolled back (embedded, SQLite, PostgreSQL) or stays as far as it got (ClickHouse): say which.
  const stop = (signal: NodeJS.Signals) => {
    io.stderr.write(
      `${bar.clear()}\nInterrupted (${signal}): ${job.atomic ? `nothing of this import was written; ${job.target} is as it was before it` : `the records written so far stay in ${job.target}, without their rollups`}. ` +
        'Run the same command again.\n',
    );
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    return await importAll(io, job, bar, finish, started);
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}

async function importAll(
  io: CliIo,
  job: Parameters<typeof importFiles>[1],
  bar: ReturnType<typeof phaseProgress>,
  finish: ReturnType<typeof finishPhases>,
  started: number,
): Promise<number> {
  // One command is one load: every file's header is read before anything is written.
  const unreadable = await unreadableFiles(job);
  if (unreadable.length > 0) {
    bar.end();
    for (const { file, message } of unreadable) io.stderr.write(`${file}: ${message}
`);
    const n = unreadable.length;
    io.stderr.write(`Nothing was imported: ${n} of ${job.files.length} file${job.files.length === 1 ? '' : 's'} cannot be read${n > 1 ? ' (each named above)' : ''}.\n`);
    return EXIT.failure;
  }
  const sizes = job.files.map((file) => statSync(file).size);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const writer = await job.store.writer();
  // A load stopped before its finish: rolled back where it is one transaction (the store closes without committing it).
  const abandon = (why: string) => {
    bar.end();
    io.stderr.write(`${why}: ${job.atomic ? `nothing of this import was written; ${job.target} is as it was before it` : `the records written so far stay in ${job.target}, without their rollups`}.\n`);
    return EXIT.failure;
  };
  const derived = new DerivedDomains();
  const results: FileResult[] = [];
  let rejected = 0;
  let tooMany = false;
  let doneBytes = 0;
  for (const [i, file] of job.files.entries()) {
    const result: FileResult = { file, format: undefined, fields: undefined, imported: 0, domain_records: 0, rejected: 0, skipped: 0 };
    results.push(result);
    let scoresDomains = false;
    const onReject = (line: RejectedLine) => {
      rejected++;
      if (job.maxRejects !== undefined && rejected > job.maxRejects) tooMany = true;
      result.rejected++;
      if (rejected <= SHOWN_REJECTS) io.stderr.write(`${bar.clear()}${file}:${line.line}: ${line.reason}\n`);
      job.rejectsFile?.write(`${JSON.stringify({ file, line: line.line, reason: line.reason })}\n`);
    };
    const before = doneBytes;
    let absentCounts: Readonly<Record<string, number>> | undefined;
    // Links without a domain_score (NDJSON) give their referring domain no score.
    const unscored = new Set<LinkInput>();
    const records = readImportFile(createReadStream(file), {
      format: job.formats[i]!.syntax,
      shape: job.formats[i]!.shape,
      batchSize: job.batchSize,
      onReject,
      onSkip: () => result.skipped++,
      onFormat: (report) => {
        result.format = report.format;
        result.fields = Object.fromEntries(
          report.fields.map((field) => [field.field, field.absent.length > 0 ? { kind: field.kind, columns: field.columns, absent: field.absent } : { kind: field.kind, columns: field.columns }]),
        );
        // Only a format with a domain score gives referring domains one.
        scoresDomains = report.fields.some((field) => field.field === 'domain_score' && field.kind !== 'default') && report.produces === 'links';
        const described = describeFormat(file, report);
        if (described !== '') io.stderr.write(`${bar.clear()}${described}`);
      },
      onBytes: (bytes) => bar.update(before + bytes, totalBytes),
      onUnscored: (link) => unscored.add(link),
      onAbsent: (counts) => {
        absentCounts = counts;
        for (const [field, count] of Object.entries(counts)) Object.assign(result.fields![field]!, { absent: [field], absent_in: count });
      },
      domainOf: job.domainOf,
      seenAt: job.seenAt ?? statSync(file).mtime.toISOString().slice(0, 19),
    });
    try {
      for await (const batch of records) {
        if (tooMany) break;
        if (batch.kind === 'domains') {
          await writer.domains(batch.rows);
          result.domain_records += batch.rows.length;
        } else {
          await writer.links(batch.rows);
          // (Each is let go once its batch is written.)
          const scored = unscored.size === 0 ? batch.rows : batch.rows.filter((row) => !unscored.delete(row));
          if (scoresDomains) derived.add(scored);
          result.imported += batch.rows.length;
        }
      }
    } catch (error) {
      bar.end();
      io.stderr.write(`${file}: ${(error as Error).message}\n`);
      return abandon(`${file} could not be read to its end`);
    }
    if (tooMany) return abandon(`More than ${job.maxRejects!.toLocaleString('en-US')} rejected line${job.maxRejects === 1 ? '' : 's'} (--max-rejects ${job.maxRejects})`);
    // A CSV file's absent columns leave the field unknown in every record it gave.
    for (const field of Object.values(result.fields ?? {})) if (field.absent !== undefined) field.absent_in ??= result.imported + result.domain_records;
    if (absentCounts !== undefined) io.stderr.write(`${bar.clear()}${describeAbsent(file, absentCounts)}`);
    doneBytes += sizes[i]!;
  }
  // Last, so that a domains file of the same import keeps its records whatever the order of the files.
  await derived.write(writer, job.batchSize);
  bar.end();
  if (rejected > SHOWN_REJECTS) io.stderr.write(`... and ${(rejected - SHOWN_REJECTS).toLocaleString('en-US')} more rejected lines${job.rejectsFile ? ' (all in --rejects)' : ''}.\n`);
  finish.begin();
  const stats = await writer.finish({ onProgress: finish.onProgress });
  bar.end();
  const seconds = (performance.now() - started) / 1000;
  const imported = results.reduce((sum, file) => sum + file.imported, 0);
  const domains = results.reduce((sum, file) => sum + file.domain_records, 0);
  const skipped = results.reduce((sum, file) => sum + file.skipped, 0);
  const rate = seconds > 0 ? Math.round(imported / seconds) : imported;
  const n = (value: number) => value.toLocaleString('en-US');
  io.stderr.write(
    `Imported ${n(imported)} records from ${job.files.length} file${job.files.length === 1 ? '' : 's'} into ${job.target} in ${seconds.toFixed(1)} s ` +
      `(${n(rate)} records/s); ${n(rejected)} lines rejected` +
      `${skipped > 0 ? `; ${n(skipped)} rows skipped (not links)` : ''}${domains > 0 ? `; ${n(domains)} domain records` : ''}` +
      `${derived.size > 0 ? `; the links' domain scores given to those of their ${n(derived.size)} referring domains without a domain record` : ''}` +
      `; rollups of ${n(stats.domains)} domains updated.\n`,
  );
  const summary = { imported, rejected, skipped, domain_records: domains, domains: stats.domains, seconds: Number(seconds.toFixed(3)), files: results };
  io.stdout.write(`${JSON.stringify(summary)}\n`);
  return rejected > 0 ? EXIT.failure : EXIT.ok;
}

/** Why `file` is not a file that can be read (missing, a directory, not allowed), or undefined. */
function notAFile(file: string): string | undefined {
  try {
    if (statSync(file).isDirectory()) return 'a directory, not a file';
    accessSync(file, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'not allowed to read it' : (error as Error).message;
  }
}

/**
 * The files whose header cannot be read (no header, not the format named, not text), each with
 * why: each file is read until its first batch of records, which a file that cannot be read never
 * yields (`ImportFileError`), and nothing is written.
 */
async function unreadableFiles(job: Parameters<typeof importFiles>[1]): Promise<{ file: string; message: string }[]> {
  const found: { file: string; message: string }[] = [];
  for (const [i, file] of job.files.entries()) {
    const missing = notAFile(file);
    if (missing !== undefined) {
      found.push({ file, message: missing });
      continue;
    }
    const stream = createReadStream(file);
    try {
      const records = readImportFile(stream, {
        format: job.formats[i]!.syntax,
        shape: job.formats[i]!.shape,
        batchSize: 1,
        onReject: () => {},
        domainOf: job.domainOf,
        seenAt: job.seenAt ?? '1970-01-01T00:00:00',
      });
      for await (const batch of records) {
        void batch;
        break;
      }
    } catch (error) {
      found.push({ file, message: (error as Error).message });
    } finally {
      stream.destroy();
    }
  }
  return found;
}
