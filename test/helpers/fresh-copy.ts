/** A fresh copy of the clone, for tests that run what a new user runs (docs examples, the packed tarball). */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Copies the files git tracks or would add (no dist/, no .backlink-query/) into `into`, and links node_modules. */
export function freshCopy(into: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(into, file)); // keeps the mode: bin/backlink-query.js stays executable
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted in the work tree
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'), 'dir');
}
