/**
 * `backlink-query import`: loads crawl exports of backlink records (NDJSON, or CSV as the service
 * writes it) into the store, streaming in batches through the store's bulk writer, then brings the
 * rollups of every touched domain up to date. Broken lines are reported and skipped, never loaded
 * in part; importing the same file twice changes nothing.
 *
 * @module
 * @internal
 */
import { createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import { describeLocation, formatOfFile, importTemplate, readLinkRecords, type ImportFormat, type RejectedLine, type Store } from '../../server/index.js';
import { integerOption, parseCommandArgs, stringOption, UsageError, type OptionTable } from '../args.js';
import { EXIT, type CliIo, type Command } from '../command.js';
import { finishPhases, phaseProgress } from '../progress.js';
import { painter } from '../style.js';
import { DATABASE_OPTIONS, databaseOptionsHelp, loadDepsOrExplain, locationOf, openStoreOrExplain } from './database.js';

/** Rejected lines printed on stderr before the rest are only counted (all go to --rejects). */
const SHOWN_REJECTS = 20;

const HELP = `Usage: backlink-query import FILE... [--format ndjson|csv] [--db FILE | --database-url URL] [--rejects FILE]
       backlink-query import --template ndjson|csv

Loads backlink records into the store: one JSON object per line (NDJSON), or CSV as the service
writes it (a header of field names, ';' between cells, booleans true/false). Every field of the
backlink record is required except is_new, which is ignored. A link is identified by its
source_url, target_url, anchor and image_url: importing it again replaces it, so importing the
same file twice changes nothing. Lines that are not valid records are reported with their line
number and skipped; the others are imported. Rollups of the touched domains are updated at the end.
Every field, its type and an example: docs/importing.md (in the package), or --template.

Options:
  --format F           ndjson or csv (default: from each file's extension: .csv, .ndjson/.jsonl/.json)
${databaseOptionsHelp(undefined)}
  --rejects FILE       write every rejected line as NDJSON {"file","line","reason"}
  --batch N            records per write (default 2000)
  --template F         print a one-record file in format F (ndjson or csv) to start from, and exit

Exit status: 0 all lines imported; 1 some lines rejected (the rest imported) or a file unreadable; 2 usage.
`;

const OPTIONS = {
  format: { type: 'string' }, ...DATABASE_OPTIONS, rejects: { type: 'string' }, batch: { type: 'string' }, template: { type: 'string' }, help: { type: 'boolean' },
} as const satisfies OptionTable;

/** The `import` command. @internal */
export const importCommand: Command = {
  name: 'import',
  summary: 'Import crawl exports of backlink records (NDJSON or CSV) into the store',
  help: HELP,
  options: OPTIONS,
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
    if (forced !== undefined && forced !== 'ndjson' && forced !== 'csv') throw new UsageError('--format must be ndjson or csv.');
    const batchSize = integerOption(o, 'batch', 1) ?? 2_000;
    const formats: ImportFormat[] = [];
    for (const file of files) {
      const format = forced ?? formatOfFile(file);
      if (!format) throw new UsageError(`Cannot tell the format of ${file} from its name; pass --format ndjson or --format csv.`);
      formats.push(format);
    }
    // Never the sample by default: serve --sample makes it, and may make it again (issue 29).
    const location = locationOf(o, io.env, undefined, 'import');
    const deps = await loadDepsOrExplain(io, 'import', location);
    if (!deps) return EXIT.failure;
    const store = await openStoreOrExplain(io, location, deps.tldts);
    if (!store) return EXIT.unavailable;
    const rejectsPath = stringOption(o, 'rejects');
    const rejectsFile = rejectsPath === undefined ? undefined : createWriteStream(rejectsPath);
    try {
      return await importFiles(io, { store, files, formats, batchSize, rejectsFile, target: describeLocation(location) });
    } finally {
      await store.close();
      if (rejectsFile) await new Promise<void>((resolve) => rejectsFile.end(resolve));
    }
  },
};

async function importFiles(
  io: CliIo,
  job: {
    store: Store;
    files: readonly string[];
    formats: readonly ImportFormat[];
    batchSize: number;
    rejectsFile: WriteStream | undefined;
    target: string;
  },
): Promise<number> {
  const started = performance.now();
  const sizes = job.files.map((file) => statSync(file).size);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  // Phases: the files read and written in batches, then the store's finish (indexes, rollups, the rest).
  const bar = phaseProgress(io.stderr, { paint: painter(io.stderr, io.env) });
  const finish = finishPhases(bar);
  bar.phase('importing records', 'bytes');
  const writer = await job.store.writer();
  let imported = 0;
  let rejected = 0;
  let doneBytes = 0;
  for (const [i, file] of job.files.entries()) {
    const onReject = (line: RejectedLine) => {
      rejected++;
      if (rejected <= SHOWN_REJECTS) io.stderr.write(`${bar.clear()}${file}:${line.line}: ${line.reason}\n`);
      job.rejectsFile?.write(`${JSON.stringify({ file, line: line.line, reason: line.reason })}\n`);
    };
    const before = doneBytes;
    const records = readLinkRecords(createReadStream(file), {
      format: job.formats[i]!,
      batchSize: job.batchSize,
      onReject,
      onBytes: (bytes) => bar.update(before + bytes, totalBytes),
    });
    try {
      for await (const batch of records) {
        await writer.links(batch);
        imported += batch.length;
      }
    } catch (error) {
      bar.end();
      io.stderr.write(`${file}: ${(error as Error).message}\n`);
      await writer.finish();
      return EXIT.failure;
    }
    doneBytes += sizes[i]!;
  }
  bar.end();
  if (rejected > SHOWN_REJECTS) io.stderr.write(`... and ${(rejected - SHOWN_REJECTS).toLocaleString('en-US')} more rejected lines${job.rejectsFile ? ' (all in --rejects)' : ''}.\n`);
  finish.begin();
  const stats = await writer.finish({ onProgress: finish.onProgress });
  bar.end();
  const seconds = (performance.now() - started) / 1000;
  const rate = seconds > 0 ? Math.round(imported / seconds) : imported;
  io.stderr.write(
    `Imported ${imported.toLocaleString('en-US')} records from ${job.files.length} file${job.files.length === 1 ? '' : 's'} into ${job.target} in ${seconds.toFixed(1)} s ` +
      `(${rate.toLocaleString('en-US')} records/s); ${rejected.toLocaleString('en-US')} lines rejected; rollups of ${stats.domains.toLocaleString('en-US')} domains updated.\n`,
  );
  io.stdout.write(`${JSON.stringify({ imported, rejected, domains: stats.domains, seconds: Number(seconds.toFixed(3)) })}\n`);
  return rejected > 0 ? EXIT.failure : EXIT.ok;
}
