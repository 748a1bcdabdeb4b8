/**
 * How fast an import could be with no row store at all, for bench/RESULTS.md ("A design without SQLite's
 * copy of the links"): the links written once, into DuckDB, and every rollup computed there. Two
 * pipelines over the same NDJSON file of the service's own records, each into a fresh column file:
 *
 * - **checked in JavaScript**: the import's own reader checks every record (what reports broken lines),
 *   `linkRow` gives each link its stored form, DuckDB's appender takes the rows;
 * - **DuckDB alone**: DuckDB's `read_json` reads the file on every thread and the stored columns are
 *   derived in SQL (the registrable domain of each distinct host from tldts, joined back). Nothing is
 *   checked, so no import that reports broken lines can be this fast.
 *
 * Then, in both, every rollup of the embedded store in one group (`computeRollups`) and the ranked links
 * (`rankedLinks`). Left out of both, so both are below what a real import would take: a link's identity
 * against links stored before (the upsert), the domain records beside the links, and reading the rollups
 * by key anywhere but DuckDB. The reader's own time, and with `linkRow`, are printed first. Each time is
 * wall time, then the CPU time of the whole process (DuckDB's threads included): what two cores must share.
 *
 *   node --import tsx bench/import-file.ts 1000000 ndjson /tmp/m1.ndjson
 *   node --import tsx bench/import-columns-floor.ts /tmp/m1.ndjson
 */
import { createReadStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backlinkRecord } from '../src/catalogue/records.js';
import { loadParser } from '../src/server/deps.js';
import { readImportFile } from '../src/server/import/read-records.js';
import { openDuckdbConnection, type DuckdbWriter } from '../src/server/store/engines/duckdb/connection.js';
import { computeRollups, STAGE_LINK_COLUMNS, stageInputTables } from '../src/server/store/engines/duckdb/rollups.js';
import { columnTables, rankedLinks } from '../src/server/store/engines/duckdb/schema.js';
import { LINK_COLUMNS, linkRow } from '../src/server/store/inputs.js';
import { raw, sql } from '../src/server/store/fragment.js';

const [file] = process.argv.slice(2);
if (!file) throw new TypeError('usage: bench/import-columns-floor.ts FILE.ndjson');
const tldts = await loadParser();
/** An instant: wall time and the CPU time of the whole process (every thread, DuckDB's among them), in ms. */
const mark = () => {
  const { user, system } = process.cpuUsage();
  return { wall: performance.now(), cpu: (user + system) / 1000 };
};
/** Wall and CPU seconds since an instant. */
const since = (from: ReturnType<typeof mark>) => {
  const now = mark();
  return `${((now.wall - from.wall) / 1000).toFixed(1).padStart(6)} s (CPU ${((now.cpu - from.cpu) / 1000).toFixed(1).padStart(5)} s)`;
};
const records = () => readImportFile(createReadStream(file), { format: 'ndjson', onReject: () => undefined });

for (const derive of [false, true]) {
  const started = mark();
  let count = 0;
  for await (const batch of records()) {
    count += batch.rows.length;
    if (derive && batch.kind === 'links') for (const row of batch.rows) linkRow(row, tldts);
  }
  console.log(`${since(started)}  ${count.toLocaleString('en-US')} records ${derive ? 'read, checked and given their stored form (linkRow)' : "read and checked by the import's reader"}, nothing written`);
}

/** Where each of `stage_links`' columns is in a stored link's values (`id` is counted). */
const STAGE_FROM = STAGE_LINK_COLUMNS.map((column) => (LINK_COLUMNS as readonly string[]).indexOf(column.name));

/** Fills `stage_links` from the file in JavaScript: the import's reader, `linkRow`, DuckDB's appender. */
async function stageInJavaScript(tx: DuckdbWriter): Promise<void> {
  const stage = await tx.appender('temp.stage_links', STAGE_LINK_COLUMNS.map((column) => column.type));
  let id = 0;
  try {
    for await (const batch of records()) {
      if (batch.kind !== 'links') continue;
      for (const link of batch.rows) {
        const { values } = linkRow(link, tldts);
        id++;
        stage.add(STAGE_FROM.map((at) => (at < 0 ? id : values[at])));
      }
    }
  } finally {
    stage.close();
  }
}

/** The record's own fields among `stage_links`' columns, with their DuckDB types (an append type is a DuckDB type name). */
const FIELDS = STAGE_LINK_COLUMNS.filter((column) => column.name in backlinkRecord);
const HOST = `lower(regexp_extract(target_url, '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#:]+)', 1))`;
const PATH = `coalesce(nullif(regexp_extract(target_url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+([^?#]*)', 1), ''), '/')`;

/** Fills `stage_links` from the file in DuckDB alone: `read_json`, the stored columns in SQL. */
async function stageInDuckdb(tx: DuckdbWriter): Promise<void> {
  const columns = `{${FIELDS.map((column) => `${column.name}: '${column.type.toUpperCase()}'`).join(', ')}}`;
  await tx.run(sql`CREATE TEMP TABLE raw_links AS SELECT *, ${raw(HOST)} AS host_, ${raw(PATH)} AS path_ FROM read_json(${file}, format = 'newline_delimited', columns = ${raw(columns)})`);
  const hosts: string[] = [];
  for await (const [names] of tx.chunksOf(raw('SELECT DISTINCT host_ FROM raw_links'))) hosts.push(...(names as string[]));
  await tx.run(raw('CREATE TEMP TABLE host_domains (host VARCHAR NOT NULL, domain VARCHAR NOT NULL)'));
  await tx.append('temp.host_domains', ['varchar', 'varchar'], hosts.map((host) => [host, tldts.getDomain(host) ?? host]));
  await tx.run(
    raw(
      `INSERT INTO stage_links SELECT row_number() OVER () AS id, ${FIELDS.map((column) => `r.${column.name}`).join(', ')}, d.domain, r.host_, r.path_, ` +
        `CASE WHEN len(string_split(r.ip_address, '.')) = 4 THEN array_to_string(string_split(r.ip_address, '.')[1:3], '.') ELSE r.ip_address END ` +
        'FROM raw_links r JOIN host_domains d ON d.host = r.host_',
    ),
  );
}

for (const [name, stage] of [
  ['checked in JavaScript', stageInJavaScript],
  ['DuckDB alone', stageInDuckdb],
] as const) {
  const columnsFile = join(tmpdir(), `bq-columns-floor-${process.pid}.duckdb`);
  const store = await openDuckdbConnection(columnsFile, { memoryLimit: '2GiB', readers: 1 });
  console.log(`${name}:`);
  const started = mark();
  let at = started;
  const step = (what: string) => {
    console.log(`${since(at)}  ${what}`);
    at = mark();
  };
  try {
    await store.transaction(columnTables().map(raw));
    await store.writeTransaction(async (tx) => {
      for (const statement of stageInputTables()) await tx.run(raw(statement));
      await stage(tx);
      // A referring domain's record from its most recently seen link, as an import of links makes it.
      await tx.run(raw(`INSERT INTO stage_sources SELECT source_domain, arg_max(ip_address, last_seen_at), '', arg_max(domain_score, last_seen_at) FROM stage_links GROUP BY source_domain`));
    });
    step('the links staged, with their referring domains');
    await store.writeTransaction(async (tx) => {
      for (const statement of computeRollups()) {
        await tx.run(raw(statement));
        step(`rollup ${/TEMP TABLE new_(\w+)/.exec(statement)?.[1] ?? '?'} (computeRollups, one group)`);
      }
      for (const statement of ["SET disabled_optimizers = 'join_order'", `INSERT INTO links ${rankedLinks('stage_links')}`, 'RESET disabled_optimizers']) await tx.run(raw(statement));
    });
    await store.checkpoint();
    step('the links ranked and written (rankedLinks), the checkpoint');
    const [[links]] = (await store.columnsOf(raw('SELECT count(*) FROM links'))) as [[bigint]];
    const total = (performance.now() - started.wall) / 1000;
    console.log(`${since(started)}  in all: ${Number(links).toLocaleString('en-US')} links, ${Math.round(Number(links) / total).toLocaleString('en-US')} links/s`);
  } finally {
    await store.close();
    for (const suffix of ['', '.wal']) rmSync(`${columnsFile}${suffix}`, { force: true });
  }
}
