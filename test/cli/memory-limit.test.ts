/**
 * `--memory-limit SIZE` of the loads (`import`, `seed`) read in-process: the units as DuckDB reads
 * them (KB = 1,000 bytes, KiB = 1,024) and the least it takes, 128 MiB = 134,217,728 bytes, tried
 * on both sides in every unit (docs/importing.md, "Large files and interrupted imports"). The
 * messages as the commands print them are checked as processes in test/server/import/memory.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { loadStoreOptions } from '../../src/cli/server/database.js';

const limit = (value: string) => loadStoreOptions({ 'memory-limit': value }, 'embedded');

describe('--memory-limit', () => {
  it.each([
    // exactly 128 MiB, and just above it, in each unit
    ['128MiB', '128MiB'],
    ['131072KiB', '131072KiB'],
    ['0.125GiB', '0.125GiB'],
    ['0.0001220703125TiB', '0.0001220703125TiB'],
    ['134217.728KB', '134217.728KB'],
    ['134.218MB', '134.218MB'],
    ['0.135GB', '0.135GB'],
    ['0.000135TB', '0.000135TB'],
  ])('takes %j as %j', (value, taken) => {
    expect(limit(value)).toEqual({ memoryLimit: taken });
  });

  it.each(['127MiB', '131071KiB', '0.12GiB', '0.000122TiB', '134217.727KB', '134.217MB', '0.134GB', '0.000134TB', '0MB', '128', '128MIB2', 'lots', ''])(
    'refuses %j: less than 128 MiB, or not a size',
    (value) => {
      expect(() => limit(value)).toThrow(new UsageError(`--memory-limit must be a size of at least 128MiB, such as 512MB, 2GB or 1.5GiB; got ${JSON.stringify(value)}.`));
    },
  );

  it('is none when not given, and only for the embedded store', () => {
    expect(loadStoreOptions({}, 'embedded')).toEqual({});
    for (const kind of ['sqlite', 'postgres', 'clickhouse'] as const) {
      expect(() => loadStoreOptions({ 'memory-limit': '1GB' }, kind)).toThrow(
        new UsageError("--memory-limit is the embedded store's (--db FILE): SQLite, PostgreSQL and ClickHouse manage their own memory."),
      );
      expect(loadStoreOptions({}, kind)).toEqual({});
    }
  });
});
