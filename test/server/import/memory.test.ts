/**
 * The memory the embedded store's column side (DuckDB) may take, as docs/importing.md ("Large files
 * and interrupted imports") and `import --help` say it: opened for writing, 512 MiB or a quarter of
 * the machine's memory, whichever is less, and for a group of domains that needs more, 2 GiB (or
 * the quarter) once; opened read-only to serve, half the machine's memory;
 * `columns.memoryLimit` (`import --memory-limit`, `seed --memory-limit`) wins. A load that needs
 * more than its limit is a StoreError `out_of_memory` and writes nothing; the command says so and
 * exits with 1. Expected values are DuckDB's own display of the sizes, worked out by hand (300 MB =
 * 286.1 MiB).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../../src/server/store/engines/embedded/embedded-store.js';
import { isStoreError } from '../../../src/server/store/errors.js';
import { raw } from '../../../src/server/store/fragment.js';
import type { LinkInput } from '../../../src/server/sample/dataset.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { writeExport } from '../../../bench/import-file.js';
import * as fx from '../support/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);

/** DuckDB's memory limit as it shows it ('2.0 GiB', '286.1 MiB'). */
async function limitOf(store: EmbeddedStore): Promise<string> {
  const [row] = await store.columns.all<{ m: string }>(raw(`SELECT current_setting('memory_limit') AS m`));
  return row!.m;
}

/** A size as DuckDB shows it: in GiB, cut (not rounded) to one decimal. */
const gib = (bytes: number) => `${(Math.floor((bytes / 2 ** 30) * 10) / 10).toFixed(1)} GiB`;

describe("the column side's memory limit", () => {
  it('opened for writing (a load): 512 MiB, or a quarter of the machine when that is less', async () => {
    const store = await openEmbeddedStore({ file: newFile(), readers: 1 });
    try {
      const quarter = Math.floor(totalmem() / 4 / 2 ** 20);
      expect(await limitOf(store)).toBe(Math.min(512, quarter) === 512 ? '512.0 MiB' : gib(quarter * 2 ** 20));
    } finally {
      await store.close();
    }
  });

  it('opened read-only (a server): half the machine', async () => {
    const file = newFile();
    await (await openEmbeddedStore({ file, readers: 1 })).close();
    const store = await openEmbeddedStore({ file, readers: 1, readOnly: true });
    try {
      expect(await limitOf(store)).toBe(gib(Math.floor(totalmem() / 2 ** 21) * 2 ** 20));
    } finally {
      await store.close();
    }
  });

  it('columns.memoryLimit wins', async () => {
    const store = await openEmbeddedStore({ file: newFile(), readers: 1, columns: { memoryLimit: '300MB' } });
    try {
      expect(await limitOf(store)).toBe('286.1 MiB');
    } finally {
      await store.close();
    }
  });
});

/** `count` links to `domains` target domains, each from its own page of one of 500 referring domains. */
function manyLinks(count: number, domains: number): LinkInput[] {
  const base = fx.exampleLinks[0]!;
  return Array.from({ length: count }, (_, i) => ({
    ...base,
    source_url: `https://site${i % 500}.org/page/${i}`,
    source_domain: `site${i % 500}.org`,
    target_url: `https://target${i % domains}.com/p/${i % 97}`,
    anchor: `anchor ${i % 1_000}`,
    first_seen_at: `2025-${String((i % 12) + 1).padStart(2, '0')}-01T00:00:00`,
  }));
}

/** A limit too small for the rollups of {@link OOM_LINKS} links (DuckDB's first allocations for them exceed it). */
const OOM_LIMIT = '16MB';
const OOM_LINKS = 2_000;

describe('a load that needs more than the limit', () => {
  it('is a StoreError out_of_memory naming the limit, and writes nothing', async () => {
    const file = newFile();
    const store = await openEmbeddedStore({ file, readers: 1, columns: { memoryLimit: OOM_LIMIT } });
    try {
      const writer = await store.writer();
      await writer.links(manyLinks(OOM_LINKS, 40));
      const failure = await writer.finish({ all: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isStoreError(failure) && failure.code).toBe('out_of_memory');
      expect((failure as Error).message).toContain(`(${OOM_LIMIT})`);
      // The library names its own option; the command line adds its flag (the CLI tests below).
      expect((failure as Error).message).toContain('columns.memoryLimit');
      expect((failure as Error).message).not.toMatch(/--[a-z]/);
    } finally {
      await store.close();
    }
    // Opened again with the default limit: no link, no rollup; and the same load goes through.
    const again = await openEmbeddedStore({ file, readers: 1 });
    try {
      expect(again.db.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 0 });
      expect(again.db.prepare('SELECT count(*) AS n FROM r_targets').get()).toEqual({ n: 0 });
      expect(await again.columns.all(raw('SELECT count(*) AS n FROM links'))).toEqual([{ n: 0 }]);
      const writer = await again.writer();
      await writer.links(manyLinks(OOM_LINKS, 40));
      expect(await writer.finish({ all: true })).toEqual({ links: OOM_LINKS, domains: 40 });
      expect(await again.columns.all(raw('SELECT count(*) AS n FROM links'))).toEqual([{ n: OOM_LINKS }]);
    } finally {
      await again.close();
    }
  });
});

describe('a group of domains that needs more than the first limit', () => {
  it('is given the most a load may take, once, and goes through', async () => {
    const store = await openEmbeddedStore({ file: newFile(), readers: 1, loadLimits: { first: OOM_LIMIT, most: '512MiB' } });
    try {
      const writer = await store.writer();
      await writer.links(manyLinks(OOM_LINKS, 40));
      expect(await writer.finish({ all: true })).toEqual({ links: OOM_LINKS, domains: 40 });
      expect(await store.columns.all(raw('SELECT count(*) AS n FROM links'))).toEqual([{ n: OOM_LINKS }]);
    } finally {
      await store.close();
    }
  });

  it('fails naming the most when that is too small as well, and writes nothing; a limit the load names is never raised', async () => {
    const raised = await openEmbeddedStore({ file: newFile(), readers: 1, loadLimits: { first: '8MB', most: OOM_LIMIT } });
    const named = await openEmbeddedStore({ file: newFile(), readers: 1, columns: { memoryLimit: OOM_LIMIT }, loadLimits: { first: '8MB', most: '512MiB' } });
    try {
      for (const [store, limit] of [[raised, OOM_LIMIT], [named, OOM_LIMIT]] as const) {
        const writer = await store.writer();
        await writer.links(manyLinks(OOM_LINKS, 40));
        const failure = await writer.finish({ all: true }).then(() => undefined, (error: unknown) => error);
        expect(isStoreError(failure) && failure.code).toBe('out_of_memory');
        expect((failure as Error).message).toContain(`(${limit})`);
        expect(store.db.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 0 });
      }
    } finally {
      await raised.close();
      await named.close();
    }
  });
});

describe('import --memory-limit', () => {
  const records = join(dir, 'links.ndjson');
  writeFileSync(records, `${manyLinks(30, 3).map((link) => JSON.stringify(link)).join('\n')}\n`);

  it('imports within the limit it is given', async () => {
    const result = await runCli(['import', records, '--db', newFile(), '--memory-limit', '512MiB']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ imported: 30, rejected: 0, domains: 3 });
  });

  it('says when the import needs more, exits with 1, and writes nothing', async () => {
    // What a group needs varies with how DuckDB's threads happen to run: 20,000 links of `manyLinks`
    // needed 160-192 MiB run alone, yet once went through within 128 MiB in CI. So the file needs
    // three times the limit or more: 200,000 lines of the import bench's export fail within 384 MiB
    // and go through within 512 MiB, run alone (docs/importing.md, "Large files and interrupted imports").
    const large = join(dir, 'large.ndjson');
    await writeExport(large, 200_000, 'ndjson');
    const file = newFile();
    const result = await runCli(['import', large, '--db', file, '--memory-limit', '128MiB']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`${file}: The column file's rollups needed more memory than DuckDB may use (128MiB); nothing was changed.`);
    expect(result.stderr).toContain('Give it more: --memory-limit SIZE on import or seed');
    expect(result.stderr).not.toMatch(/internal error|Possible solutions|\n\s+at /);
    const store = await openEmbeddedStore({ file, readers: 1 });
    try {
      expect(store.db.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 0 });
    } finally {
      await store.close();
    }
    // 200,000 lines through the CLI: a minute or more on a busy 2-core machine.
  }, 180_000);

  it.each([
    ['lots', /--memory-limit must be a size of at least 128MiB, such as 512MB, 2GB or 1\.5GiB; got "lots"/],
    ['100MB', /--memory-limit must be a size of at least 128MiB.*got "100MB"/],
    ['2 GB per core', /got "2 GB per core"/],
  ])('refuses %j as a usage error, before anything is written', async (value, message) => {
    const file = newFile();
    const result = await runCli(['import', records, '--db', file, '--memory-limit', value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('refuses it for a store other than the embedded one', async () => {
    const result = await runCli(['import', records, '--database-url', `sqlite:${newFile()}`, '--memory-limit', '1GB']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--memory-limit is the embedded store's \(--db FILE\)/);
  });
});

describe('seed --memory-limit', () => {
  it('says when the seed needs more, exits with 1, writes nothing, and a seed within its limit then goes through', async () => {
    // A sample of 200,000 links fails within 384 MiB and goes through within 512 MiB, run alone:
    // three times the limit or more, as for the import above (20,000 links needed 192-256 MiB).
    const file = newFile();
    const failed = await runCli(['seed', '--links', '200000', '--db', file, '--memory-limit', '128MiB']);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(`${file}: The column file's rollups needed more memory than DuckDB may use (128MiB); nothing was changed.`);
    expect(failed.stderr).toContain('Give it more: --memory-limit SIZE on import or seed');
    expect(failed.stderr).not.toMatch(/internal error|Possible solutions|\n\s+at /);
    // Nothing written: the next seed of the same file is not told it already holds links.
    const seeded = await runCli(['seed', '--links', '2000', '--db', file, '--memory-limit', '512MiB']);
    expect(seeded.code, seeded.stderr).toBe(0);
    const store = await openEmbeddedStore({ file, readers: 1 });
    try {
      expect(store.db.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 2_000 });
    } finally {
      await store.close();
    }
    // 200,000 lines through the CLI: a minute or more on a busy 2-core machine.
  }, 180_000);

  it('refuses a size it cannot read, and a store other than the embedded one, as usage errors', async () => {
    const unreadable = await runCli(['seed', '--links', '100', '--db', newFile(), '--memory-limit', 'lots']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/--memory-limit must be a size of at least 128MiB, such as 512MB, 2GB or 1\.5GiB; got "lots"/);
    const sqlite = await runCli(['seed', '--links', '100', '--database-url', `sqlite:${newFile()}`, '--memory-limit', '1GB']);
    expect(sqlite.code).toBe(2);
    expect(sqlite.stderr).toMatch(/--memory-limit is the embedded store's \(--db FILE\)/);
  });
});
