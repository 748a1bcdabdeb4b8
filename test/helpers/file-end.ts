/**
 * Work to do when the current test file's tests end: a database to drop, a folder to remove.
 *
 * Vitest's own `afterAll` registers a hook only while a file is being collected: called from
 * inside a `beforeAll` or a test, where the helpers that make databases are called, it is dropped
 * without a word. `onFileEnd` can be called from anywhere; test/setup/file-end.ts, a setup file of
 * every project, runs what was registered after each file's own `afterAll` hooks (vitest runs
 * `after` hooks in reverse order of registration, and a setup file's come first), so a file's
 * server is closed before its database is dropped. A project whose files share one module graph
 * (`isolate: false`) shares this list too, and each file's end empties it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Task = () => unknown;

const tasks: Task[] = [];

/** Runs `task` when the current test file's tests end (after the file's own `afterAll` hooks). */
export function onFileEnd(task: Task): void {
  tasks.push(task);
}

/** Runs and forgets every registered task, the last registered first; fails with all that failed. */
export async function runFileEnd(): Promise<void> {
  const errors: unknown[] = [];
  for (const task of tasks.splice(0).reverse()) {
    try {
      await task();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} clean-ups at the end of the file failed`);
}

/**
 * A temporary folder for the current file, made on the first call (not when the file is
 * collected: a run that filters the file's tests out, or `vitest list`, runs none of its hooks and
 * would leave a folder made then behind) and removed at the file's end.
 */
export function fileTempDir(prefix: string): () => string {
  let dir: string | undefined;
  return () => {
    if (dir === undefined) {
      const made = mkdtempSync(join(tmpdir(), prefix));
      onFileEnd(() => {
        rmSync(made, { recursive: true, force: true });
        dir = undefined;
      });
      dir = made;
    }
    return dir;
  };
}
