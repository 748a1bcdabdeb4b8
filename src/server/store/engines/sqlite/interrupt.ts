/**
 * Stopping a SQLite statement that another thread is running. better-sqlite3 has no call for
 * SQLite's `sqlite3_interrupt()`, which SQLite documents as safe to call from any thread; a small
 * loadable extension gives it one. Each worker thread loads the extension into its connection and
 * registers the connection in a numbered slot (`bq_interrupt_register(slot)`); the main thread
 * loads it into a connection of its own and calls `bq_interrupt(slot)`. The extension is one
 * shared library per process, so both see the same table of slots.
 *
 * The extension is compiled on first use with the system's C compiler (`cc`), against the
 * `sqlite3ext.h` better-sqlite3 ships, into the user's cache folder (`$XDG_CACHE_HOME` or
 * `~/.cache`, then `backlink-query/`), named by a hash of its source and header, so it is built
 * once per machine and version. Without a compiler, statements run to their end as before (the
 * cancel of a statement still waiting for its thread works either way).
 *
 * @module
 * @internal
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** Slots of the extension's table: connections that can be interrupted at once. */
export const INTERRUPT_SLOTS = 1024;

const SOURCE = `#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include <stdatomic.h>

#define SLOTS ${INTERRUPT_SLOTS}
static sqlite3 *_Atomic handles[SLOTS];

static int slot_of(sqlite3_context *ctx, sqlite3_value *value) {
  int slot = sqlite3_value_int(value);
  if (slot < 0 || slot >= SLOTS) {
    sqlite3_result_error(ctx, "bq_interrupt: slot out of range", -1);
    return -1;
  }
  return slot;
}

static void register_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int slot = slot_of(ctx, argv[0]);
  if (slot < 0) return;
  atomic_store(&handles[slot], sqlite3_context_db_handle(ctx));
  sqlite3_result_int(ctx, 1);
}

static void unregister_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int slot = slot_of(ctx, argv[0]);
  if (slot < 0) return;
  atomic_store(&handles[slot], (sqlite3 *)0);
  sqlite3_result_int(ctx, 1);
}

static void interrupt_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int slot = slot_of(ctx, argv[0]);
  if (slot < 0) return;
  sqlite3 *db = atomic_load(&handles[slot]);
  if (db) sqlite3_interrupt(db);
  sqlite3_result_int(ctx, db != 0);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_bqinterrupt_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  int rc = sqlite3_create_function(db, "bq_interrupt_register", 1, SQLITE_UTF8, 0, register_fn, 0, 0);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "bq_interrupt_unregister", 1, SQLITE_UTF8, 0, unregister_fn, 0, 0);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "bq_interrupt", 1, SQLITE_UTF8, 0, interrupt_fn, 0, 0);
  return rc;
}
`;

let built: Promise<string | undefined> | undefined;

/**
 * The path of the compiled extension, building it on first use; `undefined` when it cannot be
 * built here (no C compiler, no better-sqlite3 headers, an unwritable cache).
 */
export function interruptExtension(): Promise<string | undefined> {
  built ??= build().catch(() => undefined);
  return built;
}

async function build(): Promise<string | undefined> {
  const include = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');
  const header = join(include, 'sqlite3ext.h');
  if (!existsSync(header)) return undefined;
  const hash = createHash('sha256').update(SOURCE).update(readFileSync(header)).update(process.platform).update(process.arch).digest('hex').slice(0, 16);
  const suffix = process.platform === 'darwin' ? 'dylib' : process.platform === 'win32' ? 'dll' : 'so';
  const cache = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'backlink-query');
  const target = join(cache, `bq-interrupt-${hash}.${suffix}`);
  if (existsSync(target)) return target;
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  // Compiled in a private folder of the cache, then moved into place whole.
  const work = mkdtempSync(join(cache, 'build-'));
  try {
    writeFileSync(join(work, 'interrupt.c'), SOURCE);
    const output = join(work, `interrupt.${suffix}`);
    const flags = process.platform === 'darwin' ? ['-dynamiclib'] : ['-shared', '-fPIC'];
    await promisify(execFile)(process.env['CC'] || 'cc', [...flags, '-O2', '-I', include, join(work, 'interrupt.c'), '-o', output], { timeout: 60_000 });
    renameSync(output, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
