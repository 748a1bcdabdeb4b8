/**
 * Times `backlink-query import` on a large generated export (bench/import-file.ts) into the
 * embedded store, and writes the section "Import, 1M lines" of bench/RESULTS.md (bench/server/run.ts
 * keeps that section when it rewrites the rest of the file).
 *
 *   node --import tsx bench/import-run.ts [--lines 1000000] [--formats ndjson,csv] [--more 2000000] [--dir /tmp/bq-import-bench] [--out bench/RESULTS.md]
 *
 * For each format: the file is generated once (seed 1, kept in --dir), then imported into an empty
 * database and once more into the same database (a re-import: every link replaced by itself, every
 * domain's rollups refreshed). Then, for each size of `--more` (default 2,000,000 lines; `--more ''`:
 * none), an NDJSON file of that size into an empty database: whether the peak memory grows with the
 * file. Each import runs as `node --import tsx src/cli/main.ts import FILE
 * --db DB` under `/usr/bin/time` (its peak resident memory), its stderr piped: the CLI prints one
 * line per phase as it starts there, and each line is timed as it arrives.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeExport } from './import-file.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HEADING = '## Import, 1M lines';

/** The section of a RESULTS.md that this script writes (from its heading to the next `## `), or ''. */
export function importSection(text: string): string {
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start === -1) return '';
  const next = text.indexOf('\n## ', start + HEADING.length + 2);
  return `${text.slice(start + 1, next === -1 ? undefined : next + 1).trimEnd()}\n`;
}

interface Phase {
  readonly name: string;
  readonly seconds: number;
}

interface Run {
  readonly label: string;
  readonly seconds: number;
  readonly phases: readonly Phase[];
  readonly maxRssKb: number;
  readonly imported: number;
  readonly domains: number;
  readonly dbBytes: number;
}

/** One import, its phases timed from its stderr lines. */
function timeImport(label: string, file: string, db: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'import', file, '--db', db], { cwd: ROOT });
    const marks: { name: string; at: number }[] = [];
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const phase = /^([a-z ]+)\.\.\.$/.exec(line.trim());
        if (phase) marks.push({ name: phase[1]!, at: performance.now() });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ended = performance.now();
      if (code !== 0) return reject(new Error(`import exited with ${code}:\n${stderr}`));
      const summary = JSON.parse(stdout.trim().split('\n').pop()!) as { imported: number; domains: number };
      const phases: Phase[] = [{ name: 'starting (loading modules, opening the store)', seconds: (marks[0]?.at ?? ended) - started }];
      marks.forEach((mark, i) => phases.push({ name: mark.name, seconds: ((marks[i + 1]?.at ?? ended) - mark.at) / 1000 }));
      phases[0] = { name: phases[0]!.name, seconds: phases[0]!.seconds / 1000 };
      const dbBytes = [db, `${db}-wal`, `${db}.duckdb`, `${db}.duckdb.wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
      resolvePromise({
        label, seconds: (ended - started) / 1000, phases, maxRssKb: Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0), imported: summary.imported, domains: summary.domains, dbBytes,
      });
    });
  });
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function render(runs: readonly Run[], larger: readonly Run[], lines: number, command: string, commit: string, load: readonly number[]): string {
  const out = [
    HEADING,
    '',
    `Written by \`${command}\` (bench/import-run.ts), ${new Date().toISOString()}, code ${commit}; load average before: ${load.map((x) => x.toFixed(2)).join(', ')}.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${type()} ${release()}, Node ${process.version}.`,
    '',
    `The export: ${n(lines)} lines of the service's own records from \`node --import tsx bench/import-file.ts ${lines} FORMAT FILE\` (seed 1;`,
    `${n(Math.round(lines / 500))} target domains, ${n(Math.round(lines / 20))} referring domains, heavy-tailed). Each import: \`node --import tsx src/cli/main.ts import FILE --db DB\``,
    'into the embedded store (SQLite + DuckDB), first into an empty database, then the same file again into it (a re-import: every link',
    'stored already with the same values is left as it is; only the domains whose links changed have their rollups rebuilt). The phases are',
    "the CLI's own lines on stderr, timed as they arrive; the rate is",
    "lines over the whole command's wall time, rollups and the column file included. Peak RSS: `/usr/bin/time`'s maximum resident set size.",
    'Goal (issue 29): >= 50,000 links/s into the embedded default, rollups included.',
    '',
    `| import | total s | links/s | ${runs[0]!.phases.map((phase) => phase.name).join(' s | ')} s | peak RSS | database after |`,
    `| --- | ---: | ---: | ${runs[0]!.phases.map(() => '---:').join(' | ')} | ---: | ---: |`,
  ];
  for (const run of runs) {
    // By the first run's phases: a phase that did not run (a re-import that changed nothing has no rollups to build) shows a dash.
    const phases = runs[0]!.phases.map((column) => {
      const phase = run.phases.find((p) => p.name === column.name);
      return phase ? n(phase.seconds, 1) : '—';
    });
    out.push(`| ${run.label} | ${n(run.seconds, 1)} | ${n(run.imported / run.seconds)} | ${phases.join(' | ')} | ${n(run.maxRssKb / 1024)} MB | ${n(run.dbBytes / 1e6)} MB |`);
  }
  const worst = Math.min(...runs.map((run) => run.imported / run.seconds));
  out.push('', `Goal **${worst >= 50_000 ? 'met' : 'missed'}**: the slowest import ran at ${n(worst)} links/s.`, '');
  if (larger.length > 0) {
    const first = runs.find((run) => run.label.startsWith('NDJSON, empty')) ?? runs[0]!;
    out.push(
      '**Peak memory by file size** (NDJSON into an empty database; the same generator, more lines):',
      '',
      '| lines | total s | links/s | peak RSS | database after |',
      '| ---: | ---: | ---: | ---: | ---: |',
      ...[first, ...larger].map((run) => `| ${n(run.imported)} | ${n(run.seconds, 1)} | ${n(run.imported / run.seconds)} | ${n(run.maxRssKb / 1024)} MB | ${n(run.dbBytes / 1e6)} MB |`),
      '',
    );
  }
  return `${out.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '1000000' },
      formats: { type: 'string', default: 'ndjson,csv' },
      more: { type: 'string', default: '2000000' },
      dir: { type: 'string', default: '/tmp/bq-import-bench' },
      out: { type: 'string', default: 'bench/RESULTS.md' },
    },
  });
  const lines = Number(values.lines);
  const formats = values.formats!.split(',') as ('ndjson' | 'csv')[];
  const dir = resolve(values.dir!);
  const outFile = resolve(ROOT, values.out!);
  mkdirSync(dir, { recursive: true });
  const load = loadavg();
  const runs: Run[] = [];
  for (const format of formats) {
    const file = join(dir, `export-${lines}.${format}`);
    if (!existsSync(file)) {
      process.stderr.write(`generating ${file}\n`);
      await writeExport(file, lines, format, 1);
    }
    const db = join(dir, `import-${format}.db`);
    for (const path of [db, `${db}-wal`, `${db}-shm`, `${db}.duckdb`, `${db}.duckdb.wal`]) rmSync(path, { force: true });
    for (const label of [`${format.toUpperCase()}, empty database`, `${format.toUpperCase()}, re-import into it`]) {
      process.stderr.write(`${label}...\n`);
      const run = await timeImport(label, file, db);
      process.stderr.write(`  ${n(run.seconds, 1)} s, ${n(run.imported / run.seconds)} links/s, peak RSS ${n(run.maxRssKb / 1024)} MB; ${run.phases.map((p) => `${p.name} ${n(p.seconds, 1)} s`).join(', ')}\n`);
      runs.push(run);
    }
  }
  const larger: Run[] = [];
  for (const size of values.more!.split(',').filter((text) => text.trim() !== '').map(Number)) {
    const file = join(dir, `export-${size}.ndjson`);
    if (!existsSync(file)) {
      process.stderr.write(`generating ${file}\n`);
      await writeExport(file, size, 'ndjson', 1);
    }
    const db = join(dir, `import-${size}.db`);
    for (const path of [db, `${db}-wal`, `${db}-shm`, `${db}.duckdb`, `${db}.duckdb.wal`]) rmSync(path, { force: true });
    process.stderr.write(`NDJSON, ${n(size)} lines, empty database...\n`);
    const run = await timeImport(`NDJSON, ${n(size)} lines`, file, db);
    process.stderr.write(`  ${n(run.seconds, 1)} s, ${n(run.imported / run.seconds)} links/s, peak RSS ${n(run.maxRssKb / 1024)} MB\n`);
    larger.push(run);
  }
  const git = (args: string[]) =>
    new Promise<string>((done) => {
      const child = spawn('git', args, { cwd: ROOT });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      child.on('close', () => done(text.trim()));
      child.on('error', () => done(''));
    });
  const dirty = (await git(['status', '--porcelain', '--', 'src'])).split('\n').filter((line) => line.trim() !== '').length;
  const commit = `${(await git(['rev-parse', '--short', 'HEAD'])) || 'unknown'}${dirty > 0 ? ` + ${dirty} uncommitted file${dirty === 1 ? '' : 's'} under src/` : ', src/ clean'}`;
  const argv = process.argv.slice(2);
  const section = render(runs, larger, lines, `node --import tsx bench/import-run.ts${argv.length > 0 ? ` ${argv.join(' ')}` : ''}`, commit, load);
  const text = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  const old = importSection(text);
  const next = old === '' ? `${text.trimEnd()}\n\n${section}` : text.replace(old, section);
  writeFileSync(outFile, next);
  process.stderr.write(`wrote the section "${HEADING.slice(3)}" of ${outFile}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
