/**
 * An interrupted `import` leaves the database as it was before it (issue 29, item 4): the bulk
 * writer's load is one SQLite transaction, from the first record to the end of the rollups, so a
 * process killed (SIGKILL), terminated (SIGTERM) or interrupted (SIGINT) midway commits nothing,
 * and the embedded store's column file, never written in place (the load writes the next
 * generation beside it), is left as it was: the next start does not rebuild it. Running the same
 * command again then imports the whole file.
 *
 * The import runs as a process on a pseudo-terminal (util-linux `script`), so that it draws its
 * progress bars; it is stopped once a bar shows part of a phase done (some records written, some
 * domains' rollups built), never after a fixed sleep. Expected counts are worked out from the
 * records themselves: the hand-written ones before, the generated file's rows after.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { exportLinks, exportWorld, writeExport } from '../../../bench/import-file.js';
import { clockAt } from '../../../src/server/clock.js';
import { loadServerDeps } from '../../../src/server/deps.js';
import { Random } from '../../../src/server/sample/random.js';
import { openEmbeddedStore } from '../../../src/server/store/engines/embedded/embedded-store.js';
import type { LinkInput } from '../../../src/server/store/inputs.js';
import { toTarget } from '../../../src/server/target.js';
import { runCli, PROJECT } from '../../cli/helpers/run-cli.js';
import { cliCommand } from '../../helpers/cli-command.js';
import { fileTempDir } from '../../helpers/file-end.js';

const tempDir = fileTempDir('bq-import-interrupted-');

/** Lines of the generated export: 20 target domains; about a second of records, then of rollups. */
const LINES = 10_000;
const SEED = 7;
/** The export's largest target (its first), which the hand-written records link to as well. */
const TARGET = exportWorld(new Random(SEED), LINES).targets[0]!.domain;

const link = (source: string, path: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  source_url: `https://${source}/review`, target_url: `https://${TARGET}${path}`, anchor: 'a review', redirect_url: '', source_title: 'A review',
  target_title: '', image_url: '', image_alt: '', ip_address: '198.51.100.1', lang: 'en', source_size: 1000, external_links_count: 10,
  internal_links_count: 20, response_code: 200, page_score: 30, domain_score: 40, first_seen_at: '2025-01-01T00:00:00',
  last_seen_at: '2026-06-01T00:00:00', source_domain: source, is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false,
  is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false, ...extra,
});
/** Before the interrupted import: two links to the target, from two domains, one of them nofollow. */
const BEFORE_LINKS = [link('alpha.example', '/'), link('beta.example', '/pricing', { is_nofollow: true })];
const BEFORE = { links: 2, backlinks: 2, domains: 2, follows: 1 };

/** What the target's overview must say once the whole export is in: its rows, one per link identity (the later wins), and the two before. */
function expectedAfter() {
  const identities = new Map<string, LinkInput>();
  for (const row of [...BEFORE_LINKS, ...exportLinks(LINES, SEED)]) identities.set([row.source_url, row.target_url, row.anchor, row.image_url].join('\n'), row);
  const all = [...identities.values()];
  const mine = all.filter((row) => new URL(row.target_url).hostname.replace(/^(www|blog|shop)\./, '') === TARGET);
  return {
    links: all.length,
    backlinks: mine.length,
    domains: new Set(mine.map((row) => row.source_domain)).size,
    follows: mine.filter((row) => !row.is_nofollow).length,
  };
}

/** The state of the database as `serve` shows it (the column file opened read-only, rebuilt first if stale) and the links SQLite holds. */
async function stateOf(file: string) {
  const db = new Database(file, { readonly: true });
  const links = (db.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n;
  const indexes = (db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).get() as { n: number }).n;
  db.close();
  const { tldts } = await loadServerDeps();
  const store = await openEmbeddedStore({ file, readers: 1, readOnly: true, parser: tldts });
  try {
    const overview = await store.overview(toTarget(TARGET, 'ROOT_DOMAIN', tldts)!, clockAt(new Date('2026-06-15T00:00:00Z')));
    return { state: { links, backlinks: overview.backlinks_count, domains: overview.domains_count, follows: overview.follows_count }, indexes };
  } finally {
    await store.close();
  }
}

/** Quotes a word for `sh -c`. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `import` on a pseudo-terminal and sends `signal` to its process once the terminal shows
 * `ready` (a phase's bar part done); resolves with what the terminal showed.
 */
function interruptImport(args: readonly string[], ready: (screen: string) => boolean, signal: NodeJS.Signals): Promise<string> {
  // The shell prints its id, then becomes the CLI's process (exec): that id is the import's.
  const command = `echo "pid $$"; exec ${[process.execPath, ...cliCommand(), 'import', ...args].map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: PROJECT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let sent = false;
    const onData = (chunk: string) => {
      screen += chunk;
      const pid = /pid (\d+)/.exec(screen)?.[1];
      if (!sent && pid !== undefined && ready(screen)) {
        sent = true;
        process.kill(Number(pid), signal);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('error', reject);
    child.on('close', () => (sent ? resolve(screen) : reject(new Error(`the import ended before it could be interrupted:\n${screen}`))));
    child.stdin.end();
  });
}

/** The last figures a phase's bar shows: `name [###...]  NN%  done/total unit`. */
function barOf(screen: string, phase: string): { done: number; total: number } | undefined {
  const bars = [...screen.matchAll(new RegExp(`${phase}\\S* \\[[#.]+\\]\\s+\\d+%\\s+([\\d,]+)/([\\d,]+)`, 'g'))];
  const last = bars.at(-1);
  return last && { done: Number(last[1]!.replaceAll(',', '')), total: Number(last[2]!.replaceAll(',', '')) };
}

/** Records written in part: more than a tenth of the file read, less than all of it. */
function recordsWritten(screen: string): boolean {
  const bar = barOf(screen, 'importing records');
  return bar !== undefined && bar.done > bar.total / 10 && bar.done < bar.total;
}

/** Every record written, the rollups of some domains built, not of all. */
function rollupsBuilt(screen: string): boolean {
  const bar = barOf(screen, 'building rollups');
  return bar !== undefined && bar.done > 0 && bar.done < bar.total;
}

describe('an interrupted import', () => {
  it('leaves the embedded store as it was before it, whatever stops it and when; the same command run again imports everything', async () => {
    const dir = tempDir();
    const file = join(dir, 'links.db');
    const before = join(dir, 'before.ndjson');
    writeFileSync(before, `${BEFORE_LINKS.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const base = await runCli(['import', before, '--db', file]);
    expect(base.code, base.stderr).toBe(0);
    const initial = await stateOf(file);
    expect(initial.state).toEqual(BEFORE);
    // The column file is never written in place: no stop makes the next start rebuild it.
    const columns = statSync(`${file}.duckdb`);

    const exportFile = join(dir, 'export.ndjson');
    await writeExport(exportFile, LINES, 'ndjson', SEED);
    const args = [exportFile, '--db', file];
    for (const [signal, ready, when] of [
      ['SIGKILL', recordsWritten, 'records written'],
      ['SIGTERM', rollupsBuilt, 'rollups built'],
      ['SIGINT', recordsWritten, 'records written'],
      ['SIGKILL', rollupsBuilt, 'rollups built'],
    ] as const) {
      const screen = await interruptImport(args, ready, signal);
      expect(screen, `${signal} with ${when}`).not.toContain('Imported ');
      // Ctrl+C and a polite kill are told what happened; SIGKILL cannot be.
      if (signal !== 'SIGKILL') expect(screen, `${signal} with ${when}`).toMatch(new RegExp(`Interrupted \\(${signal}\\): nothing of this import was written; .*links\\.db is as it was before it\\. Run the same command again\\.`));
      // A load stopped while it wrote the next generation leaves it beside the current one; the next
      // store to open (a server's here) removes it, no load running.
      expect(existsSync(`${file}.duckdb.next`), `${signal} with ${when}: the next generation, before a store opens`).toBe(when === 'rollups built');
      expect(await stateOf(file), `${signal} with ${when}`).toEqual(initial);
      expect(statSync(`${file}.duckdb`), `${signal} with ${when}: the column file rebuilt`).toMatchObject({ ino: columns.ino, mtimeMs: columns.mtimeMs });
      expect(existsSync(`${file}.duckdb.next`), `${signal} with ${when}: the next generation left on disk`).toBe(false);
    }

    const again = await runCli(['import', ...args]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: LINES, rejected: 0 });
    const after = await stateOf(file);
    expect(after.state).toEqual(expectedAfter());
    expect(after.indexes).toBe(initial.indexes);
  });

  it('into an empty database, leaves it empty, with every index (a load into an empty database drops and rebuilds them)', async () => {
    const dir = tempDir();
    const file = join(dir, 'empty.db');
    const exportFile = join(dir, 'export-empty.ndjson');
    await writeExport(exportFile, LINES, 'ndjson', SEED);
    // The schema's indexes, from a database of the same schema that holds data.
    const reference = join(dir, 'reference.db');
    const before = join(dir, 'before-empty.ndjson');
    writeFileSync(before, `${BEFORE_LINKS.map((row) => JSON.stringify(row)).join('\n')}\n`);
    expect((await runCli(['import', before, '--db', reference])).code).toBe(0);
    const { indexes } = await stateOf(reference);
    await interruptImport([exportFile, '--db', file], rollupsBuilt, 'SIGKILL');
    expect(await stateOf(file)).toEqual({ state: { links: 0, backlinks: 0, domains: 0, follows: 0 }, indexes });
  });
});
