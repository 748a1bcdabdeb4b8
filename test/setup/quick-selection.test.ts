/**
 * `npm run test:quick` runs only tests that stay inside vitest's own processes: none of its files
 * needs a database server (`ENGINE_FILES`), and none starts a child process, by itself or through
 * a helper of test/ it imports (a file that does belongs in `HEAVY_FILES` of engine-selection.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enginesOfFile, HEAVY_FILES, quickExclusions } from './engine-selection.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEST_FILES = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .map((file) => `test/${file}`)
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
const EXCLUDED = new Set(quickExclusions(ROOT));
const QUICK = TEST_FILES.filter((file) => !EXCLUDED.has(file) && !file.startsWith('test/server/load/'));

/** An import of child_process, or a worker thread (written in two parts so that this file does not match itself). */
const STARTS_PROCESSES = new RegExp(['from \'(node:)?child', '_process\'|\\bnew Work', 'er\\('].join(''));

/** The file and the test/ helpers it imports (values, not types), transitively. */
function sources(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(ROOT, file), 'utf8');
  // Value imports only: an `import type` runs nothing.
  for (const [, target] of text.matchAll(/^(?:import|export)(?! type )[^;]*? from '(\.{1,2}\/[^']+)'/gm)) {
    const path = relative(ROOT, resolve(ROOT, dirname(file), target!)).replace(/\.js$/, '.ts');
    if (path.startsWith('test/') && /\.(ts|mjs)$/.test(path)) {
      try {
        sources(path, seen);
      } catch {
        /* not a file of test/ (a .json, a folder): nothing to follow */
      }
    }
  }
  return seen;
}

describe('npm run test:quick', () => {
  it('selects files at all, and leaves out every file that needs an engine or is in HEAVY_FILES', () => {
    expect(QUICK.length).toBeGreaterThan(50);
    for (const file of TEST_FILES) {
      const heavy = enginesOfFile(file, 'quick').length > 0 || Object.values(HEAVY_FILES).some((pattern) => pattern.test(file));
      expect(EXCLUDED.has(file), file).toBe(heavy);
    }
    expect(EXCLUDED).toContain('test/differential/postgres.test.ts');
    expect(EXCLUDED).toContain('test/cli/serve.test.ts');
  });

  it('runs no file that starts a child process, itself or through a helper it imports', () => {
    const starting = QUICK.filter((file) => [...sources(file)].some((source) => STARTS_PROCESSES.test(readFileSync(join(ROOT, source), 'utf8'))));
    expect(starting, 'list these in HEAVY_FILES (test/setup/engine-selection.ts)').toEqual([]);
  });

  it('sees a helper that starts processes (the check is not blind)', () => {
    const helpers = [...sources('test/cli/serve.test.ts')];
    expect(helpers.some((source) => STARTS_PROCESSES.test(readFileSync(join(ROOT, source), 'utf8')))).toBe(true);
  });
});
