/**
 * The store is a library: a StoreError says what is wrong in the library's terms and names no
 * command-line flag (the CLI adds the flag that mends it: test/cli/store-error-hints.test.ts).
 * Checked on real errors where a unit test can make them (the embedded store's, which need DuckDB,
 * are checked in test/server/embedded-store.test.ts and test/server/import-memory.test.ts), and on
 * the text of every message the store's sources build, so that a new one is held to it too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isStoreError, linkRow, migrate, MIGRATIONS } from '../../../../src/server/index.js';
import { exampleLinks } from '../../../server/support/fixture.js';

/** A command-line flag as the CLI spells them: `--db`, `--memory-limit`. */
const FLAG = /--[a-z]/;
const STORE = new URL('../../../../src/server/store/', import.meta.url).pathname;

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.unreachable('nothing was thrown');
};

/** The source text of each `new StoreError(...)` under `dir`: from the call to its closing parenthesis. */
function storeErrorCalls(dir: string): { file: string; text: string }[] {
  const calls: { file: string; text: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const source = readFileSync(file, 'utf8');
    for (let at = source.indexOf('new StoreError('); at !== -1; at = source.indexOf('new StoreError(', at + 1)) {
      let depth = 0;
      let end = at;
      for (; end < source.length; end++) {
        if (source[end] === '(') depth++;
        else if (source[end] === ')' && --depth === 0) break;
      }
      calls.push({ file, text: source.slice(at, end + 1) });
    }
  }
  return calls;
}

describe('a StoreError names no command-line flag', () => {
  it('a database migrated by a newer version (schema_too_new)', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    const error = thrown(() => migrate(db));
    db.close();
    expect(isStoreError(error) && error.code).toBe('schema_too_new');
    expect((error as Error).message).not.toMatch(FLAG);
  });

  it('a record that cannot be stored (invalid_record)', () => {
    const error = thrown(() => linkRow({ ...exampleLinks[0]!, target_url: 'no host here' }, { getDomain: () => null }));
    expect(isStoreError(error) && error.code).toBe('invalid_record');
    expect((error as Error).message).not.toMatch(FLAG);
  });

  it('in any message the store builds', () => {
    const calls = storeErrorCalls(STORE);
    // The codes thrown today, each at least once: the scan sees the calls.
    expect(new Set(calls.map((call) => /new StoreError\(\s*'([a-z_]+)'/.exec(call.text)?.[1]))).toEqual(
      new Set(['schema_too_new', 'wrong_layout', 'read_only', 'invalid_record', 'out_of_memory']),
    );
    expect(calls.filter((call) => FLAG.test(call.text))).toEqual([]);
  });
});
