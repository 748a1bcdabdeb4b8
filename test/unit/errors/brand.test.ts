/**
 * One way to recognise the package's errors (docs/errors.md, "Recognising the package's errors"):
 * each error class carries the brand `Symbol.for('backlink-query.<Name>')` and a guard tests it.
 * A second copy of the package is simulated by loading every error module a second time
 * (`vi.resetModules()`): its classes are other objects, so `instanceof` fails across the copies,
 * and the guards must not.
 */
import { describe, expect, it, vi } from 'vitest';
import { errorBrand } from '../../../src/shared/brand.js';

/** Every error class of the package with its guard: the module, the guard, and one instance from a copy's exports. */
const CLASSES = [
  ['src/errors/filter-error.ts', 'FilterError', 'isFilterError', (m) => new m.FilterError([], 'x')],
  ['src/errors/filter-error.ts', 'ParameterError', 'isParameterError', (m) => new m.ParameterError('limit', 'too_small', 'limit must be at least 1.')],
  ['src/sql/unsupported-error.ts', 'UnsupportedError', 'isUnsupportedError', (m) => new m.UnsupportedError('sqlite', 'NUL')],
  ['src/client/errors.ts', 'HttpError', 'isHttpError', (m) => new m.HttpError({ method: 'GET', url: 'http://h/', status: 400, statusText: 'Bad Request', body: '' })],
  ['src/client/errors.ts', 'NetworkError', 'isNetworkError', (m) => new m.NetworkError('GET', 'http://h/', new Error('refused'))],
  ['src/client/errors.ts', 'TimeoutError', 'isTimeoutError', (m) => new m.TimeoutError('GET', 'http://h/', 5)],
  ['src/client/errors.ts', 'AbortError', 'isAbortError', (m) => new m.AbortError('GET', 'http://h/', 'stop')],
  ['src/client/errors.ts', 'ResponseShapeError', 'isResponseShapeError', (m) => new m.ResponseShapeError('GET', 'http://h/', 'not JSON', '<html>')],
  ['src/client/errors.ts', 'BudgetError', 'isBudgetError', (m) => new m.BudgetError('GET', 'http://h/', 10, 1)],
  ['src/server/errors.ts', 'ServiceError', 'isServiceError', (m) => new m.ServiceError(404, 'No data.')],
  ['src/server/store/connection.ts', 'StoreUnavailableError', 'isStoreUnavailable', (m) => new m.StoreUnavailableError('locked')],
  ['src/server/store/call-signal.ts', 'QueryCancelledError', 'isQueryCancelled', (m) => new m.QueryCancelledError()],
  ['src/server/store/errors.ts', 'StoreError', 'isStoreError', (m) => new m.StoreError('read_only', 'open for serving')],
  ['src/server/store/errors.ts', 'StoreQueryError', 'isStoreQueryError', (m) => new m.StoreQueryError('Code: 62. Syntax error', '62')],
  ['src/server/keys-config.ts', 'KeyConfigError', 'isKeyConfigError', (m) => new m.KeyConfigError('invalid_id', 'id is missing.', 1)],
  ['src/server/worker-accounts.ts', 'PrimaryAccountsError', 'isPrimaryAccountsError', (m) => new m.PrimaryAccountsError('disk I/O error')],
  ['src/server/import/import-error.ts', 'ImportFileError', 'isImportFileError', (m) => new m.ImportFileError('no_header', 'CSV file has no header line')],
  ['src/peers.ts', 'MissingDependencyError', 'isMissingDependencyError', (m) => new m.MissingDependencyError('backlink-query/kysely', ['kysely'])],
  ['src/cli/args.ts', 'UsageError', 'isUsageError', (m) => new m.UsageError('--limit needs a value.')],
  ['src/cli/refused.ts', 'RefusedError', 'isRefusedError', (m) => new m.RefusedError('Not confirmed; nothing was sent.')],
] as const satisfies readonly (readonly [string, string, string, (m: any) => Error])[]; // eslint-disable-line @typescript-eslint/no-explicit-any

type Module = Record<string, unknown>;
type Guard = (value: unknown) => boolean;

/** Two copies of a module: loaded, the registry reset, loaded again. */
async function twoCopies(path: string): Promise<[Module, Module]> {
  const url = new URL(`../../../${path}`, import.meta.url).href;
  vi.resetModules();
  const first = (await import(/* @vite-ignore */ url)) as Module;
  vi.resetModules();
  const second = (await import(/* @vite-ignore */ url)) as Module;
  return [first, second];
}

describe('the guards of the package errors', () => {
  it.each(CLASSES)('%s: %s is recognised across copies of the package, by its brand', async (path, name, guard, make) => {
    const [one, other] = await twoCopies(path);
    expect(one[name]).not.toBe(other[name]); // two class objects
    const theirs = make(other);
    expect(theirs).not.toBeInstanceOf(one[name] as new () => Error);
    expect((one[guard] as Guard)(theirs)).toBe(true);
    expect((other[guard] as Guard)(make(one))).toBe(true);
    expect(theirs.name).toBe(name);
  });

  it.each(CLASSES)('%s: a plain Error named %s is not one', async (path, name, guard) => {
    const [one] = await twoCopies(path);
    const is = one[guard] as Guard;
    expect(is(Object.assign(new Error('x'), { name }))).toBe(false);
    expect(is(new Error('x'))).toBe(false);
    expect(is({ name, message: 'x' })).toBe(false);
    expect(is(null)).toBe(false);
    expect(is(undefined)).toBe(false);
    expect(is(name)).toBe(false);
  });

  it('tells the classes apart: an error is recognised by its own guard and no other (isApiError aside, below)', async () => {
    const modules = new Map<string, Module>();
    for (const [path] of CLASSES) if (!modules.has(path)) modules.set(path, (await import(/* @vite-ignore */ new URL(`../../../${path}`, import.meta.url).href)) as Module);
    for (const [path, name, , make] of CLASSES) {
      const error = make(modules.get(path)!);
      const recognised = CLASSES.filter(([guardPath, , guard]) => (modules.get(guardPath)![guard] as Guard)(error)).map(([, other]) => other);
      expect(recognised, name).toEqual([name]);
    }
  });

  it('recognises a client error as an ApiError too', async () => {
    const [one, other] = await twoCopies('src/client/errors.ts');
    const isApiError = one['isApiError'] as Guard;
    for (const [path, , , make] of CLASSES) {
      if (path === 'src/client/errors.ts') expect(isApiError(make(other))).toBe(true);
    }
    expect(isApiError(Object.assign(new Error('x'), { name: 'HttpError', kind: 'http' }))).toBe(false);
  });
});

describe('errorBrand', () => {
  it('gives two classes branded with the same name one guard, and keeps the brand out of sight', () => {
    const first = errorBrand<Error>('BrandTestError');
    const second = errorBrand<Error>('BrandTestError');
    class One extends Error {
      constructor() {
        super('one');
        first.mark(this);
      }
    }
    class Two extends Error {
      constructor() {
        super('two');
        second.mark(this);
      }
    }
    expect(first.is(new Two())).toBe(true);
    expect(second.is(new One())).toBe(true);
    expect(errorBrand('OtherTestError').is(new One())).toBe(false);
    expect(Object.getOwnPropertySymbols(new One())).toEqual([Symbol.for('backlink-query.BrandTestError')]);
    // Not enumerable: neither printed with the error nor copied by a spread.
    expect(Object.getOwnPropertySymbols({ ...new One() })).toEqual([]);
    expect(first.is({ [Symbol.for('backlink-query.BrandTestError')]: 'yes' })).toBe(false);
  });
});
