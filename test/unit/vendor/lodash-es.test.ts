/**
 * src/vendor/lodash-es.ts against lodash-es itself (the copy Chevrotain depends on, in
 * node_modules): every function the shim exports, on generated arrays, array-likes, plain
 * objects, strings and absent values, must give what lodash gives, and call the iteratee with the
 * same arguments in the same order. The filter language's own suites then run on the build that
 * uses the shim (the bundle tests load dist/).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as native from '../../../src/vendor/lodash-es.js';

// lodash-es has no types in this project (Chevrotain's dependency, not ours).
type AnyFunction = (...args: unknown[]) => unknown;
const lodash = (await import('lodash-es' as string)) as Record<string, AnyFunction>;

/** Runs `call` with lodash's and the shim's function; results, iteratee calls and throws must agree. */
function same(name: keyof typeof native, call: (fn: AnyFunction, record: (...args: unknown[]) => unknown) => unknown, iterateeResult: (...args: unknown[]) => unknown = () => undefined) {
  const run = (fn: AnyFunction) => {
    const calls: unknown[][] = [];
    const record = (...args: unknown[]) => (calls.push(args.slice(0, 3)), iterateeResult(...args));
    try {
      return { result: call(fn, record), calls };
    } catch (error) {
      return { threw: (error as Error).constructor.name, calls };
    }
  };
  expect(run(native[name] as AnyFunction), name).toEqual(run(lodash[name]!));
}

const scalar = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0, -0, NaN, '', 'a', 'b', null, undefined, true, false));
const array = fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxLength: 6 });
const object = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'length', '0', 'constructor', 'toString'), scalar, { maxKeys: 4 });
const collection = fc.oneof(array, object, fc.string({ maxLength: 4 }), fc.constantFrom(null, undefined), array.map((items) => ({ ...items, length: items.length })));
/** What an iteratee returns: a value computed from its arguments, `false` included (forEach stops on it). */
const answers = fc.func(fc.oneof(scalar, fc.constant(false)));

describe('the native lodash-es functions Chevrotain uses behave as lodash-es', () => {
  const iterating = ['forEach', 'map', 'filter', 'reject', 'find', 'some', 'every', 'groupBy', 'flatMap', 'pickBy'] as const;
  it.each(iterating)('%s', (name) => {
    fc.assert(
      fc.property(collection, answers, (items, answer) => {
        same(name, (fn, record) => fn(items, record), (value) => answer(value));
      }),
      { numRuns: 300 },
    );
  });

  it.each(['map', 'filter', 'find', 'some', 'every'] as const)('%s with a property name or no iteratee', (name) => {
    fc.assert(
      fc.property(fc.array(fc.oneof(object, scalar), { maxLength: 5 }), fc.constantFrom('a', 'b', undefined), (items, key) => {
        same(name, (fn) => fn(items, key));
      }),
    );
  });

  it('reduce, with and without an accumulator', () => {
    fc.assert(
      fc.property(collection, answers, fc.option(scalar), (items, answer, start) => {
        same('reduce', (fn, record) => fn(items, record), (acc, value) => answer(acc, value));
        same('reduce', (fn, record) => fn(items, record, start), (acc, value) => answer(acc, value));
      }),
    );
  });

  it('find from an index', () => {
    fc.assert(fc.property(collection, answers, fc.integer({ min: -8, max: 8 }), (items, answer, from) => same('find', (fn, record) => fn(items, record, from), (value) => answer(value))));
  });

  it.each(['keys', 'values', 'isEmpty', 'flatten', 'uniq', 'compact', 'first', 'last', 'clone', 'isArray', 'isString', 'isFunction', 'isUndefined', 'isObject', 'isRegExp', 'upperFirst', 'identity'] as const)('%s', (name) => {
    const extra = fc.constantFrom(/a/g, new Map([[1, 2]]), new Set(), new Map(), Object.create(null) as object, () => 1, new String('s'), 0, 1.5, 'ébc', '');
    fc.assert(fc.property(fc.oneof(collection, extra), (value) => same(name, (fn) => fn(value))));
  });

  it('clone copies arrays, objects (with their prototype), regular expressions', () => {
    class Point {
      x = 1;
    }
    const regexp = /a+/gi;
    regexp.lastIndex = 2;
    for (const value of [[1, [2]], { a: { b: 1 } }, new Point(), regexp, 'abc'.match(/b/)]) {
      const ours = native.clone(value);
      const theirs = lodash['clone']!(value);
      expect(ours).toEqual(theirs);
      expect(Object.getPrototypeOf(ours)).toBe(Object.getPrototypeOf(theirs));
      if (value instanceof RegExp) expect([(ours as RegExp).lastIndex, (ours as RegExp).flags]).toEqual([2, 'gi']);
    }
  });

  it('drop, dropRight, includes, indexOf, difference, has', () => {
    fc.assert(
      fc.property(fc.oneof(array, fc.string({ maxLength: 4 }), fc.constantFrom(null, undefined)), scalar, fc.option(fc.integer({ min: -6, max: 6 }), { nil: undefined }), (items, value, n) => {
        same('drop', (fn) => fn(items, n));
        same('dropRight', (fn) => fn(items, n));
        same('drop', (fn) => fn(items));
        same('includes', (fn) => fn(items, value, n));
        same('indexOf', (fn) => fn(items, value, n));
        same('difference', (fn) => fn(items, [value], items === null ? [] : [0]));
      }),
    );
    fc.assert(fc.property(collection, fc.constantFrom('a', 'b', 'length', '0', 'exec', 'constructor'), (value, key) => same('has', (fn) => fn(value, key))));
    same('has', (fn) => fn(/x/, 'exec'));
    same('has', (fn) => fn({ exec: () => null }, 'exec'));
  });

  it('assign and defaults', () => {
    fc.assert(
      fc.property(object, fc.oneof(object, fc.constantFrom(null, undefined)), object, (target, first, second) => {
        same('assign', (fn) => fn({ ...target }, first, second));
        same('defaults', (fn) => fn({ ...target }, first, second));
      }),
    );
    same('defaults', (fn) => fn({ toString: Object.prototype.toString }, { toString: 1 }));
  });

  it('noop returns nothing', () => same('noop', (fn) => fn(1)));

  it('exports every function Chevrotain imports, and nothing lodash-es lacks', () => {
    for (const name of Object.keys(native)) expect(typeof lodash[name], name).toBe('function');
  });

  it('an iteratee shorthand Chevrotain never uses throws rather than doing something else', () => {
    expect(() => native.map([{ a: 1 }], { a: 1 } as never)).toThrow(TypeError);
    expect(() => native.has({ a: { b: 1 } }, 'a.b')).toThrow(TypeError);
  });
});
