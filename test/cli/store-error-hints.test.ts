/**
 * The server's commands report a StoreError with the store's message and, for its code, the
 * option that mends it (the store is a library and names no flag). The messages as the commands
 * print them are checked as processes in test/server/import-memory.test.ts (`out_of_memory`) and
 * test/server/embedded-store.test.ts (`wrong_layout`).
 */
import { describe, expect, it } from 'vitest';
import { describeStoreError } from '../../src/cli/server/database.js';
import { StoreError } from '../../src/server/index.js';

describe('describeStoreError', () => {
  it.each([
    ['out_of_memory', 'M.', 'M. Give it more: --memory-limit SIZE on import or seed.'],
    ['wrong_layout', 'M.', 'M. That is --db FILE, not --database-url sqlite:FILE.'],
    ['read_only', 'M.', 'M. Load with import or seed, beside the server: it answers from the new data once the load commits.'],
    ['schema_too_new', 'M.', 'M. Open it with the version of backlink-query that wrote it, or a later one.'],
    ['invalid_record', 'Not a URL with a host: x', 'Not a URL with a host: x'],
  ] as const)('%s: the message, then what to do on the command line', (code, message, expected) => {
    expect(describeStoreError(new StoreError(code, message))).toBe(expected);
  });

  it('leaves any other error to the common description', () => {
    expect(describeStoreError(new Error('disk I/O error'))).toBeUndefined();
  });
});
