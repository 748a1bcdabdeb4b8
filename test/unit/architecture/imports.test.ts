/**
 * The import checker: the layers of docs/architecture.md hold in `src/` as it is, and the checker
 * itself catches what it is for (a planted back-arrow, a planted circle, a command reaching past
 * the server's entry, a store reaching up into the server).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backArrows, importCircles, readImportGraph, type ImportGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const graph = readImportGraph(ROOT);

describe('the imports of src/', () => {
  it('reads the real graph (the CLI entry imports its commands; the server entry re-exports the stores)', () => {
    expect(graph.get('src/cli/main.ts')).toContain('src/cli/server-commands.ts');
    expect(graph.get('src/server/index.ts')).toContain('src/server/store/open.ts');
    // A dynamic import() is an edge too: the client loads the filter language on first need.
    expect(graph.get('src/client/query.ts')).toContain('src/client/local-filter.ts');
  });

  it('run down the layers only', () => {
    expect(backArrows(graph)).toEqual([]);
  });

  it('form no circle', () => {
    expect(importCircles(graph)).toEqual([]);
  });
});

describe('the checker', () => {
  const planted = (edges: Record<string, string[]>): ImportGraph => new Map([...graph, ...Object.entries(edges)]);

  it('fails on a planted back-arrow: the catalogue importing the server', () => {
    const arrows = backArrows(planted({ 'src/catalogue/csv.ts': [...graph.get('src/catalogue/csv.ts')!, 'src/server/index.ts'] }));
    expect(arrows).toEqual(['src/catalogue/csv.ts -> src/server/index.ts: catalogue imports server, a layer above it']);
  });

  it('fails on an import between two folders of one layer', () => {
    expect(backArrows(planted({ 'src/print/printer.ts': ['src/evaluate/index.ts'] }))).toEqual([
      'src/print/printer.ts -> src/evaluate/index.ts: print imports evaluate, another folder of its own layer',
    ]);
  });

  it('fails on the command line reaching past the server entry, and on a store reaching up', () => {
    expect(backArrows(planted({ 'src/cli/main.ts': ['src/server/app.ts'], 'src/server/store/open.ts': ['src/server/app.ts'] }))).toEqual([
      'src/cli/main.ts -> src/server/app.ts: only src/server/index.ts may be imported from outside the server',
      'src/server/store/open.ts -> src/server/app.ts: a store reaches up into the server',
    ]);
  });

  it("fails on the store's own rules: routes past the interfaces, shared code importing an engine, an engine importing another or a cache, SQL in memory/", () => {
    const S = 'src/server/store/';
    expect(
      backArrows(
        planted({
          'src/server/routes/operation-route.ts': [`${S}reads/reads.ts`],
          [`${S}reads/reads.ts`]: [`${S}engines/sqlite/sqlite-store.ts`],
          [`${S}engines/postgres/postgres-store.ts`]: [`${S}engines/sqlite/connection.ts`, `${S}engines/sql-engine.ts`, `${S}cache/read-cache.ts`],
          [`${S}engines/embedded/embedded-store.ts`]: [`${S}engines/sqlite/sqlite-store.ts`],
          [`${S}memory/top-k.ts`]: [`${S}fragment.ts`],
        }),
      ).sort(),
    ).toEqual([
      `src/server/routes/operation-route.ts -> ${S}reads/reads.ts: routes see only ${S}store.ts and ${S}ledger.ts of the store`,
      `${S}reads/reads.ts -> ${S}engines/sqlite/sqlite-store.ts: reads is shared by every engine and imports an engine`,
      `${S}engines/postgres/postgres-store.ts -> ${S}engines/sqlite/connection.ts: only the embedded engine may use another engine (postgres imports sqlite)`,
      `${S}engines/postgres/postgres-store.ts -> ${S}cache/read-cache.ts: an engine keeps no cache of its own: the read-cache is the store's (create-store.ts)`,
      `${S}memory/top-k.ts -> ${S}fragment.ts: memory/ holds no SQL`,
    ].sort());
  });

  it('fails on a folder in no layer', () => {
    expect(backArrows(new Map([['src/extras/x.ts', ['src/catalogue/csv.ts']]]))).toEqual([
      'src/extras/x.ts -> src/catalogue/csv.ts: extras is in no layer (add it to LAYERS and docs/architecture.md)',
    ]);
  });

  it('finds a planted circle, through a dynamic import as well', () => {
    const circle = new Map([
      ['src/client/a.ts', ['src/client/b.ts']],
      ['src/client/b.ts', ['src/client/c.ts']],
      ['src/client/c.ts', ['src/client/a.ts']],
      ['src/client/d.ts', ['src/client/a.ts']],
      ['src/client/e.ts', ['src/client/e.ts']],
    ]);
    expect(importCircles(circle)).toEqual([['src/client/a.ts', 'src/client/b.ts', 'src/client/c.ts'], ['src/client/e.ts']]);
  });
});
