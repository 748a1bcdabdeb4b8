/**
 * The lodash-es functions Chevrotain 11 imports (chevrotain, @chevrotain/gast, @chevrotain/utils,
 * @chevrotain/regexp-to-ast, @chevrotain/cst-dts-gen), in native code. The build bundles
 * Chevrotain and resolves its `lodash-es` imports here (scripts/native-lodash.ts): lodash-es is
 * about a quarter of what Chevrotain weighs in a bundle, mostly machinery (iteratee shorthands,
 * deep equality, cloning of every built-in type) that Chevrotain never reaches.
 *
 * Each function keeps lodash 4.17's behaviour for what it is given: arrays, array-likes and plain
 * objects as collections (objects iterated over their own enumerable keys, `forEach` stopping
 * when the iteratee returns `false`), `null`/`undefined` as empty, SameValueZero where lodash
 * uses it, the iteratee called with (value, index or key, collection). The one thing left out is
 * lodash's iteratee shorthands other than a property name (`map(rows, { a: 1 })`): Chevrotain
 * passes functions, and a shorthand throws here rather than doing something else quietly.
 * test/unit/vendor/lodash-es.test.ts compares every function with lodash-es itself.
 *
 * @module
 * @internal
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- lodash's signatures are this loose */
type Collection = any;
type Iteratee = ((...args: any[]) => any) | string | number | symbol | null | undefined;

const hasOwn = (object: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(object, key);
const tagOf = (value: unknown) => Object.prototype.toString.call(value);

/** lodash's isLength: a valid array-like length. */
const isLength = (value: unknown): value is number => typeof value === 'number' && value > -1 && value % 1 === 0 && value <= Number.MAX_SAFE_INTEGER;

/** lodash's isArrayLike: not a function, with a valid `length` (strings included). */
const isArrayLike = (value: unknown): value is ArrayLike<unknown> =>
  value != null && typeof value !== 'function' && isLength((value as { length?: unknown }).length);

/** lodash's toInteger, for the counts and indexes these functions take. */
function toInteger(value: unknown): number {
  const number = Number(value);
  if (Number.isNaN(number)) return 0;
  if (number === Infinity || number === -Infinity) return number < 0 ? -Number.MAX_VALUE : Number.MAX_VALUE;
  return Math.trunc(number);
}

/** A function for lodash's iteratee argument: a function, nothing (identity) or a property name. */
function iterateeOf(iteratee: Iteratee): (...args: any[]) => any {
  if (typeof iteratee === 'function') return iteratee;
  if (iteratee == null) return identity;
  if (typeof iteratee === 'string' || typeof iteratee === 'number' || typeof iteratee === 'symbol') {
    if (typeof iteratee === 'string' && /[.[\]]/.test(iteratee)) throw new TypeError(`lodash-es (native): property paths are not supported (${iteratee})`);
    return (object: any) => (object == null ? undefined : object[iteratee]);
  }
  throw new TypeError('lodash-es (native): only functions and property names are supported as iteratees');
}

/** lodash's isIndex: a valid index below `length`. */
const isIndex = (key: string, length: number) => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < length;

/**
 * lodash's `keys`: an array's (arguments object's, typed array's) indexes, holes included, then
 * its other own enumerable keys; any other value's own enumerable string keys.
 */
function keysOf(value: unknown): string[] {
  if (value == null) return [];
  const object = Object(value);
  if (!isArrayLike(value)) return Object.keys(object);
  const length = value.length;
  const indexed = Array.isArray(value) || tagOf(value) === '[object Arguments]' || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  const result = indexed ? Array.from({ length }, (_, index) => String(index)) : [];
  for (const key in object) if (hasOwn(object, key) && !(indexed && (key === 'length' || isIndex(key, length)))) result.push(key);
  return result;
}

/** lodash's eq: SameValueZero. */
const eq = (value: unknown, other: unknown) => value === other || (value !== value && other !== other);

/** lodash's baseSlice: a copy of `array` from `start` to `end`, on any array-like. */
function slice<T>(array: ArrayLike<T>, start: number, end: number): T[] {
  let length = array.length;
  if (start < 0) start = -start > length ? 0 : length + start;
  end = end > length ? length : end;
  if (end < 0) end += length;
  length = start > end ? 0 : (end - start) >>> 0;
  start >>>= 0;
  const result = new Array<T>(length);
  for (let index = 0; index < length; index++) result[index] = array[index + start]!;
  return result;
}

/** The items of an array-like, read as lodash's loops read them (`index < array.length`, whatever the length is). */
function itemsOf<T>(array: ArrayLike<T> | null | undefined): T[] {
  const result: T[] = [];
  const length = array == null ? 0 : array.length;
  for (let index = 0; index < length; index++) result.push(array![index]!);
  return result;
}

/** lodash's toString: `''` for nothing, `'-0'` for -0, arrays item by item (their `null` as 'null'). */
function toText(value: unknown): string {
  return value == null ? '' : baseToText(value);
}

function baseToText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `${value.map((item) => baseToText(item))}`;
  if (typeof value === 'symbol') return value.toString();
  const text = `${value as string}`;
  return text === '0' && 1 / (value as number) === -Infinity ? '-0' : text;
}

/**
 * lodash's iteration: an array-like's indexes up to its length when the iteration starts, an
 * object's keys (lodash's `keys`) as they were then; each value read when it is reached (so
 * changes made by the iteratee are seen, as in lodash), and passed with its key and the
 * collection as an object (a string as a String, as lodash passes it). Stops when `visit`
 * returns `false`.
 */
function each(collection: Collection, visit: (value: any, key: any, collection: any) => unknown): void {
  if (collection == null) return;
  const object = Object(collection);
  if (isArrayLike(collection)) {
    const length = collection.length;
    for (let index = 0; index < length; index++) if (visit(object[index], index, object) === false) return;
    return;
  }
  for (const key of keysOf(object)) if (visit(object[key], key, object) === false) return;
}

/** `x => x`. */
export function identity<T>(value: T): T {
  return value;
}

/** Does nothing, returns `undefined`. */
export function noop(): void {}

/** `Array.isArray`. */
export const isArray: (value: unknown) => value is any[] = Array.isArray;

/** Whether `value` is a function (plain, async, generator or class). */
export const isFunction = (value: unknown): value is (...args: any[]) => any => typeof value === 'function';

/** A string primitive or a `String` object. */
export const isString = (value: unknown): value is string =>
  typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value) && tagOf(value) === '[object String]');

/** `value === undefined`. */
export const isUndefined = (value: unknown): value is undefined => value === undefined;

/** An object or a function (not `null`). */
export const isObject = (value: unknown): value is object => value != null && (typeof value === 'object' || typeof value === 'function');

/** A regular expression. */
export const isRegExp = (value: unknown): value is RegExp => typeof value === 'object' && value !== null && tagOf(value) === '[object RegExp]';

/**
 * Whether `value` has nothing in it: `null`/`undefined`; an array, string, arguments object or
 * typed array of length 0; a Map or Set of size 0; any other value with no own enumerable key.
 */
export function isEmpty(value: unknown): boolean {
  if (value == null) return true;
  if (isArrayLike(value) && (Array.isArray(value) || typeof value === 'string' || typeof (value as { splice?: unknown }).splice === 'function' || ArrayBuffer.isView(value) || tagOf(value) === '[object Arguments]')) {
    return value.length === 0;
  }
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  for (const key in value as object) if (hasOwn(value as object, key)) return false;
  return true;
}

/** Whether `object` has `key` as an own property (`null`/`undefined` have none). */
export function has(object: unknown, key: PropertyKey): boolean {
  if (typeof key === 'string' && /[.[\]]/.test(key) && !(object != null && hasOwn(Object(object), key))) {
    throw new TypeError(`lodash-es (native): property paths are not supported (${key})`);
  }
  return object != null && hasOwn(Object(object), key);
}

/** The own enumerable string keys of `object` (an array-like's indexes). */
export function keys(object: unknown): string[] {
  return keysOf(object);
}

/** The values of `object`'s own enumerable string keys (an array-like's items). */
export function values(object: unknown): any[] {
  const source = Object(object ?? {});
  return keysOf(object).map((key) => source[key]);
}

/** Calls `iteratee(value, key, collection)` for each item, stopping when it returns `false`. */
export function forEach<C>(collection: C, iteratee: Iteratee): C {
  const call = iterateeOf(iteratee);
  each(collection, (value, key, items) => call(value, key, items));
  return collection;
}

/** The results of `iteratee(value, key, collection)`, as an array. */
export function map(collection: Collection, iteratee?: Iteratee): any[] {
  const call = iterateeOf(iteratee);
  const result: any[] = [];
  each(collection, (value, key, items) => void result.push(call(value, key, items)));
  return result;
}

/** The items for which `predicate` is truthy, as an array. */
export function filter(collection: Collection, predicate?: Iteratee): any[] {
  const test = iterateeOf(predicate);
  const result: any[] = [];
  each(collection, (value, key, items) => void (test(value, key, items) && result.push(value)));
  return result;
}

/** The items for which `predicate` is falsy, as an array. */
export function reject(collection: Collection, predicate?: Iteratee): any[] {
  const test = iterateeOf(predicate);
  const result: any[] = [];
  each(collection, (value, key, items) => void (test(value, key, items) || result.push(value)));
  return result;
}

/** The first item (from `fromIndex`) for which `predicate` is truthy; `undefined` if none. */
export function find(collection: Collection, predicate?: Iteratee, fromIndex = 0): any {
  const test = iterateeOf(predicate);
  if (collection == null) return undefined;
  const object = Object(collection);
  // As lodash's createFind: an object's keys stand in for its indexes.
  const names = isArrayLike(collection) ? undefined : keysOf(object);
  const length = names ? names.length : (collection as ArrayLike<unknown>).length;
  if (!length) return undefined;
  let start = toInteger(fromIndex);
  if (start < 0) start = Math.max(length + start, 0);
  for (let index = start; index < length; index++) {
    const key = names ? names[index]! : index;
    // lodash's findIndex passes an array-like as it was given (a string as a string).
    if (test(object[key], key, names ? object : collection)) return object[key];
  }
  return undefined;
}

/** Whether `predicate` is truthy for some item. */
export function some(collection: Collection, predicate?: Iteratee): boolean {
  const test = iterateeOf(predicate);
  let found = false;
  each(collection, (value, key, items) => !(found = !!test(value, key, items)));
  return found;
}

/** Whether `predicate` is truthy for every item (`true` for none). */
export function every(collection: Collection, predicate?: Iteratee): boolean {
  const test = iterateeOf(predicate);
  let all = true;
  each(collection, (value, key, items) => (all = !!test(value, key, items)));
  return all;
}

/**
 * Folds the items with `iteratee(accumulator, value, key, collection)`; without an accumulator,
 * the first item is the start (and `undefined` for an empty collection).
 */
export function reduce(collection: Collection, iteratee: Iteratee, ...accumulator: [any?]): any {
  const call = iterateeOf(iteratee);
  let started = accumulator.length > 0;
  let result: any = accumulator[0];
  each(collection, (value, key, items) => {
    if (started) result = call(result, value, key, items);
    else [result, started] = [value, true];
  });
  return result;
}

/** The items grouped by `iteratee(value)`: `{ [result]: items in order }`. */
export function groupBy(collection: Collection, iteratee?: Iteratee): Record<string, any[]> {
  const call = iterateeOf(iteratee);
  const groups: Record<string, any[]> = {};
  each(collection, (value) => {
    const key = call(value);
    if (hasOwn(groups, key)) groups[key]!.push(value);
    // lodash's baseAssignValue: '__proto__' is an own property, not the prototype.
    else Object.defineProperty(groups, key, { value: [value], writable: true, enumerable: true, configurable: true });
  });
  return groups;
}

/** The properties of `object` (own and inherited enumerable ones, symbols included) for which `predicate(value, key)` is truthy. */
export function pickBy(object: unknown, predicate?: Iteratee): Record<PropertyKey, any> {
  const result: Record<PropertyKey, any> = {};
  if (object == null) return result;
  const test = iterateeOf(predicate);
  const source = object as Record<PropertyKey, any>;
  const names: PropertyKey[] = [];
  for (const key in source) names.push(key);
  // lodash's getAllKeysIn: the enumerable symbols of the object and its prototypes.
  for (let level: any = source; level != null; level = Object.getPrototypeOf(level)) {
    for (const symbol of Object.getOwnPropertySymbols(level)) if (Object.prototype.propertyIsEnumerable.call(level, symbol)) names.push(symbol);
  }
  // lodash's baseSet never sets these (its guard against prototype pollution).
  for (const key of names) if (test(source[key], key) && key !== '__proto__' && key !== 'constructor' && key !== 'prototype') result[key] = source[key];
  return result;
}

/** `array` flattened one level (`null` gives `[]`). */
export function flatten(array: unknown): any[] {
  const result: any[] = [];
  for (const value of itemsOf(array as ArrayLike<unknown>)) {
    if (Array.isArray(value) || tagOf(value) === '[object Arguments]') result.push(...(value as ArrayLike<unknown> & Iterable<unknown>));
    else result.push(value);
  }
  return result;
}

/** `map`, then `flatten`. */
export function flatMap(collection: Collection, iteratee?: Iteratee): any[] {
  return flatten(map(collection, iteratee));
}

/** The items of `array` without repeats (SameValueZero), in their first order. */
export function uniq<T>(array: ArrayLike<T> | null | undefined): T[] {
  return array != null && array.length ? [...new Set(itemsOf(array))] : [];
}

/** The items of `array` that are in none of `others` (SameValueZero), in order, repeats kept. */
export function difference<T>(array: ArrayLike<T> | null | undefined, ...others: unknown[]): T[] {
  const isArrayLikeObject = (value: unknown): value is ArrayLike<unknown> => typeof value === 'object' && isArrayLike(value);
  if (!isArrayLikeObject(array)) return [];
  const excluded = new Set<unknown>();
  for (const other of others) if (isArrayLikeObject(other)) for (let index = 0; index < other.length; index++) excluded.add(other[index]);
  return array.length ? itemsOf(array).filter((value) => !excluded.has(value)) : [];
}

/** Whether `collection` (an array-like, an object's values, or a string's text) contains `value` (SameValueZero), from `fromIndex`. */
export function includes(collection: Collection, value: unknown, fromIndex = 0): boolean {
  const items = isArrayLike(collection) ? collection : values(collection);
  const length = items.length;
  let start = toInteger(fromIndex);
  if (start < 0) start = Math.max(length + start, 0);
  if (isString(items)) return start <= length && items.indexOf(value as string, start) > -1;
  return length > 0 && Array.prototype.includes.call(items, value, start);
}

/** The index of the first `value` in `array` from `fromIndex` (SameValueZero, so NaN is found), or -1. */
export function indexOf(array: ArrayLike<unknown> | null | undefined, value: unknown, fromIndex = 0): number {
  const length = array == null ? 0 : array.length;
  if (!length) return -1;
  let start = toInteger(fromIndex);
  if (start < 0) start = Math.max(length + start, 0);
  for (let index = start; index < length; index++) if (Object.is(array![index], value) || array![index] === value) return index;
  return -1;
}

/** `array` without its first `n` items (default 1). */
export function drop<T>(array: ArrayLike<T> | null | undefined, n: number = 1): T[] {
  if (array == null || !array.length) return [];
  const count = n === undefined ? 1 : toInteger(n);
  return slice(array, count < 0 ? 0 : count, array.length);
}

/** `array` without its last `n` items (default 1). */
export function dropRight<T>(array: ArrayLike<T> | null | undefined, n: number = 1): T[] {
  if (array == null || !array.length) return [];
  const count = array.length - (n === undefined ? 1 : toInteger(n));
  return slice(array, 0, count < 0 ? 0 : count);
}

/** The first item of `array`, or `undefined`. */
export function first<T>(array: ArrayLike<T> | null | undefined): T | undefined {
  return array != null && array.length ? array[0] : undefined;
}

/** The last item of `array`, or `undefined`. */
export function last<T>(array: ArrayLike<T> | null | undefined): T | undefined {
  return array != null && array.length ? array[array.length - 1] : undefined;
}

/** `array` without its falsy items (`null` gives `[]`). */
export function compact<T>(array: ArrayLike<T> | null | undefined): T[] {
  return itemsOf(array).filter(Boolean);
}

/**
 * A shallow copy: an array (with the `index` and `input` of a RegExp match), a regular
 * expression (with its `lastIndex`), a Date, a Map or a Set, or an object with the same prototype
 * and own enumerable properties (symbols included). A function gives `{}`, as in lodash;
 * primitives are returned as they are.
 */
export function clone<T>(value: T): T {
  if (!isObject(value)) return value;
  if (Array.isArray(value)) {
    const copy = value.slice() as any;
    if (value.length && typeof value[0] === 'string' && hasOwn(value, 'index')) [copy.index, copy.input] = [(value as any).index, (value as any).input];
    return copy;
  }
  // What lodash cannot clone (functions, errors, weak maps) it gives as `{}`.
  if (typeof value === 'function' || value instanceof Error || value instanceof WeakMap) return {} as T;
  if (isRegExp(value)) {
    const copy = new RegExp(value.source, /\w*$/.exec(String(value))![0]);
    copy.lastIndex = value.lastIndex;
    return copy as T;
  }
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof String || value instanceof Number || value instanceof Boolean) return Object(value.valueOf()) as T;
  if (value instanceof Map) return new Map(value) as T;
  if (value instanceof Set) return new Set(value) as T;
  const prototype = Object.getPrototypeOf(value);
  // lodash's initCloneObject: a prototype object itself is copied onto a plain object.
  // An object without a constructor (Object.create(null)) gets a plain object too.
  const constructor = (value as any).constructor;
  const isPrototype = value === ((typeof constructor === 'function' && constructor.prototype) || Object.prototype);
  const copy = typeof constructor === 'function' && !isPrototype ? Object.create(prototype) : {};
  for (const key of Object.keys(value)) copy[key] = (value as any)[key];
  for (const symbol of Object.getOwnPropertySymbols(value)) if (Object.prototype.propertyIsEnumerable.call(value, symbol)) copy[symbol] = (value as any)[symbol];
  return copy;
}

/** Copies the own enumerable string-keyed properties of each source onto `object` (`Object.assign`, without symbols). */
export function assign<T>(object: T, ...sources: unknown[]): any {
  const target = Object(object);
  for (const source of sources) {
    if (source == null) continue;
    const from = Object(source);
    // lodash's assignValue: an own property already equal (SameValueZero) is left as it is.
    for (const key of keysOf(source)) {
      const value = from[key];
      if (!(hasOwn(target, key) && eq(target[key], value)) || (value === undefined && !(key in target))) target[key] = value;
    }
  }
  return target;
}

/** Sets each property of the sources (own and inherited enumerable) that `object` has as `undefined` or not at all. */
export function defaults<T>(object: T, ...sources: unknown[]): any {
  const target = Object(object);
  for (const source of sources) {
    if (source == null) continue;
    const from = Object(source);
    for (const key in from) {
      const current = target[key];
      if (current === undefined || (Object.is(current, (Object.prototype as any)[key]) && !hasOwn(target, key))) target[key] = from[key];
    }
  }
  return target;
}

/** `text` with its first character in upper case. */
export function upperFirst(text: unknown): string {
  const string = toText(text);
  if (string === '') return '';
  const [head] = string;
  return head!.toUpperCase() + string.slice(head!.length);
}
