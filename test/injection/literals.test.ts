/**
 * Hostile literals never change a statement's structure: on each real engine, every comparison
 * and LIKE over values made of quotes, backslashes, comment markers, semicolons, placeholders,
 * wildcards, NUL and 100 KB of text returns exactly the rows the evaluator selects, the table
 * keeps its rows and the canary table is untouched. Where an engine cannot hold the value at all
 * (a NUL in PostgreSQL text; a NUL in SQLite's NUL-terminated GLOB pattern), `toSql` refuses with
 * an UnsupportedError instead of running a different query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, comparison, field, like, numberLiteral, or, stringLiteral } from '../../src/ast/factories.js';
import type { FilterNode } from '../../src/ast/nodes.js';
import { printFilter } from '../../src/print/printer.js';
import { isUnsupportedError } from '../../src/sql/index.js';
import { ENGINE_NAMES, type EngineName } from '../helpers/engines.js';
import type { RecordTable } from '../helpers/engines-tables.js';
import { anchorRow, expectedIds, InjectionFixture } from './fixture.js';
import { HOSTILE_LITERALS } from './hostile.js';

/** Rows holding every hostile value an engine can store (no NUL: PostgreSQL text cannot), and a few plain ones. */
const ROWS = [...HOSTILE_LITERALS.filter((value) => !value.includes('\u0000')), 'plain', 'PLAIN', 'x'].map(anchorRow);

/** Where an engine cannot take a NUL at all: a clear refusal is the right answer there. */
const NUL_REFUSED: Readonly<Record<EngineName, (filter: FilterNode) => boolean>> = {
  sqlite: (filter) => hasLike(filter),
  postgres: () => true,
  mysql: () => false,
  duckdb: () => false,
  clickhouse: () => false, // String holds any bytes; the literal dialect writes NUL as \0
};

/**
 * Engine limits a lowering runs into, refused by the dialect with an UnsupportedError before any
 * statement runs: SQLite's LIKE/GLOB patterns over SQLITE_MAX_LIKE_PATTERN_LENGTH (50,000 bytes by
 * default). A parsed filter cannot get there (4,096 characters at most); an AST built in code can.
 */
const ENGINE_LIMIT: Readonly<Record<EngineName, (filter: FilterNode, error: unknown) => boolean>> = {
  sqlite: (filter, error) => isUnsupportedError(error) && longestPattern(filter) > 50_000,
  postgres: () => false,
  mysql: () => false,
  duckdb: () => false,
  clickhouse: () => false,
};

function hasLike(filter: FilterNode): boolean {
  return filter.kind === 'Like' || ((filter.kind === 'And' || filter.kind === 'Or') && filter.operands.some(hasLike));
}

function longestPattern(filter: FilterNode): number {
  if (filter.kind === 'And' || filter.kind === 'Or') return Math.max(...filter.operands.map(longestPattern));
  return filter.kind === 'Like' ? Buffer.byteLength(filter.pattern.value) : 0;
}

function filtersFor(value: string): FilterNode[] {
  const anchor = field('anchor');
  const text = stringLiteral(value);
  return [
    comparison(anchor, '=', text),
    comparison(anchor, '!=', text),
    comparison(anchor, '>', text),
    comparison(anchor, '<=', text),
    like(anchor, text),
    like(anchor, text, true),
    like(anchor, stringLiteral(`%${value}%`)),
    or([and([comparison(anchor, '=', text), comparison(field('backlinks_count'), '>=', numberLiteral(0))]), like(field('last_seen_at'), text)]),
  ];
}

describe.each(ENGINE_NAMES.map((name) => [name] as [EngineName]))('hostile literals on %s', (engine) => {
  let fixture: InjectionFixture;
  let table: RecordTable;
  beforeAll(async () => {
    fixture = await InjectionFixture.open(engine);
    table = await fixture.table(`bq_inj_literals_${process.pid}`, ROWS);
  });
  afterAll(async () => {
    await fixture?.drop(table.name);
    await fixture?.close();
  });

  it.each(HOSTILE_LITERALS.map((value) => [value.length > 60 ? `${value.slice(0, 20)}… (${value.length} chars)` : value, value]))(
    'literal %j',
    async (_label, value) => {
      for (const filter of filtersFor(value)) {
        const outcome = await fixture.select(table, ROWS, filter).then(
          (ids) => ({ ids }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          const refused = value.includes('\u0000') && NUL_REFUSED[engine](filter) && isUnsupportedError(outcome.error);
          if (!refused && !ENGINE_LIMIT[engine](filter, outcome.error)) {
            throw new Error(`${engine} failed on ${printFilter(filter).slice(0, 200)}: ${String(outcome.error)}`);
          }
          await fixture.expectIntact(table, ROWS.length);
        } else {
          expect(outcome.ids, printFilter(filter).slice(0, 200)).toEqual(expectedIds(filter, ROWS));
        }
      }
    },
  );
});
