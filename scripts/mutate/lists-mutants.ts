/**
 * Mutants of how lists are read: `reads/run-list.ts` (a page, its total, list windows read ahead),
 * `matrix-merge.ts` (the matrix from the targets' referring-domain lists) and `competitor-graph.ts`
 * (competitors over the in-memory graph). The eviction of windows and kept competitor lists is the
 * bounded cache's (its mutants are in store-mutants.ts); here, what each hands it. Their unit tests run them on a real SQLite database or
 * on lists worked out by hand, against a plain sort.
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

const RUN_LIST = 'src/server/store/reads/run-list.ts';
const MATRIX = 'src/server/store/memory/matrix-merge.ts';
const COMPETITORS = 'src/server/store/memory/competitor-graph.ts';
const RUN_LIST_TESTS = ['test/unit/server/store/reads/run-list.test.ts'];
const RELATIONS = 'src/server/store/reads/relations.ts';
const RELATIONS_TESTS = ['test/unit/server/store/reads/relations.test.ts'];
const MATRIX_TESTS = ['test/unit/server/store/memory/matrix-merge.test.ts'];
const COMPETITORS_TESTS = ['test/unit/server/store/memory/competitor-graph.test.ts'];
const UNIT = 'unit';

export const LISTS_MUTANTS: readonly Mutant[] = [
  // ---- run-list.ts: pages, totals, windows
  { name: 'cold-first-page-reads-far-ahead', area: 'lists', file: RUN_LIST, find: 'const limit = window.items.length === 0 ? end : Math.max(', replace: 'const limit = window.items.length === 0 ? Math.max(end, WINDOW_ROWS) : Math.max(', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'whole-first-page-rows-not-kept', area: 'lists', file: RUN_LIST, find: "if (whole) for (const row of rows) window.rows.set(row['_key'], row);", replace: '', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'whole-first-page-read-as-keys', area: 'lists', file: RUN_LIST, find: 'const keysOnly = options.rowsOf !== undefined && !whole;', replace: 'const keysOnly = options.rowsOf !== undefined;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-not-doubled', area: 'lists', file: RUN_LIST, find: 'Math.max(end, 2 * window.items.length, WINDOW_ROWS)', replace: 'Math.max(end, window.items.length, WINDOW_ROWS)', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-read-at-its-last-row', area: 'lists', file: RUN_LIST, find: 'if (!window.complete && window.items.length < end) {', replace: 'if (!window.complete && window.items.length <= end) {', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-page-past-it-not-read', area: 'lists', file: RUN_LIST, find: 'if (!window.complete && window.items.length < end) {', replace: 'if (!window.complete && window.items.length < end - 1) {', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-full-read-taken-as-whole', area: 'lists', file: RUN_LIST, find: 'window.complete = rows.length < limit;', replace: 'window.complete = rows.length <= limit;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-counts-apart', area: 'lists', file: RUN_LIST, find: 'const counted = window.total === undefined;', replace: 'const counted = false;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-failed-count-kept', area: 'lists', file: RUN_LIST, find: 'if (window.total === total) window.total = undefined;', replace: 'void window;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-rows-read-again', area: 'lists', file: RUN_LIST, find: 'const missing = items.filter((key) => !window.rows.has(key));', replace: 'const missing = items;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-never-dropped', area: 'lists', file: RUN_LIST, find: 'new BoundedCache(maxBytes, (window) => window.bytes)', replace: 'new BoundedCache(Infinity, (window) => window.bytes)', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-not-measured-again', area: 'lists', file: RUN_LIST, find: 'if (this.#windows.get(key) === window) this.#windows.set(key, window);', replace: 'void key;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-kept-again-after-forget', area: 'lists', file: RUN_LIST, find: 'if (this.#windows.get(key) === window) this.#windows.set(key, window);', replace: 'this.#windows.set(key, window);', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-rows-not-weighed', area: 'lists', file: RUN_LIST, find: 'items.length * (keys ? KEY_BYTES : ROW_BYTES)', replace: 'items.length * KEY_BYTES', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'window-forget-keeps-lists', area: 'lists', file: RUN_LIST, find: '    this.#windows.clear();\n', replace: '', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'known-zero-total-keeps-rows', area: 'lists', file: RUN_LIST, find: 'return { rows: count === 0 ? [] : found, total: count };', replace: 'return { rows: found, total: count };', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'keys-first-rows-not-reordered', area: 'lists', file: RUN_LIST, find: "return rows.sort((a, b) => position.get(a['_key'])! - position.get(b['_key'])!);", replace: 'return rows;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'whole-list-offset-ignored', area: 'lists', file: RUN_LIST, find: 'return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };', replace: 'return { rows: all.slice(0, page.limit), total: all.length };', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'sort-key-ignored', area: 'lists', file: RUN_LIST, find: 'sql`${ident(sortKeys?.[page.orderBy] ?? page.orderBy)}', replace: 'sql`${ident(page.orderBy)}', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'unfiltered-count-with-filter', area: 'lists', file: RUN_LIST, find: "connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${keyRelation} WHERE ${condition}`),", replace: "connection.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${keyRelation}`),", tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'keys-chosen-from-whole-rows', area: 'lists', file: RUN_LIST, find: 'const keyRelation = options.rowsOf !== undefined && options.keys !== undefined ? sql`(${options.keys}) x` : relation;', replace: 'const keyRelation = relation;', tests: RUN_LIST_TESTS, project: UNIT },
  { name: 'keys-relation-for-whole-rows', area: 'lists', file: RUN_LIST, find: 'const keyRelation = options.rowsOf !== undefined && options.keys !== undefined ? sql`(${options.keys}) x` : relation;', replace: 'const keyRelation = options.keys !== undefined ? sql`(${options.keys}) x` : relation;', tests: RUN_LIST_TESTS, project: UNIT },
  // ---- relations.ts: the rows narrowed to what a filter and an order name
  { name: 'narrowed-rows-every-field', area: 'lists', file: RELATIONS, find: '.filter((field) => only === undefined || only.includes(field));\n  const inner', replace: ';\n  const inner', tests: RELATIONS_TESTS, project: UNIT },
  { name: 'narrowed-rows-every-sort-column', area: 'lists', file: RELATIONS, find: "Object.keys(sources.sortKeys).filter((field) => only === undefined || only.includes(field)) : [];", replace: 'Object.keys(sources.sortKeys) : [];', tests: RELATIONS_TESTS, project: UNIT },
  // ---- matrix-merge.ts: the union, its kept orders, the filter, top-K
  { name: 'matrix-prefix-never-grows', area: 'lists', file: MATRIX, find: 'if (prefix === undefined || (prefix.length < end && prefix.length < rows)) {', replace: 'if (prefix === undefined) {', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-prefix-grows-late', area: 'lists', file: MATRIX, find: 'if (prefix === undefined || (prefix.length < end && prefix.length < rows)) {', replace: 'if (prefix === undefined || (prefix.length < end - 1 && prefix.length < rows)) {', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-prefix-key-without-direction', area: 'lists', file: MATRIX, find: 'const name = `${query.page.orderBy} ${query.page.direction}`;', replace: 'const name = query.page.orderBy;', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-prefix-not-doubled', area: 'lists', file: MATRIX, find: 'Math.max(end, 2 * (prefix?.length ?? 0), PREFIX_ROWS)', replace: 'Math.max(end, PREFIX_ROWS)', tests: MATRIX_TESTS, project: UNIT, survives: 'the kept rows then grow to the page asked for instead of twice as far: the next deeper page computes them again, the answer is the same' },
  { name: 'matrix-ties-at-threshold-all-kept', area: 'lists', file: MATRIX, find: 'for (let i = 0; i < keys.length; i++) if (keys[i]! < threshold) chosen.push(i);', replace: 'for (let i = 0; i < keys.length; i++) if (keys[i]! <= threshold) chosen.push(i);', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-filtered-total-unfiltered', area: 'lists', file: MATRIX, find: 'return { total: kept, rows: page.slice(offset).map(record) };', replace: 'return { total: rows, rows: page.slice(offset).map(record) };', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-text-by-utf16', area: 'lists', file: MATRIX, find: '  const text = nativeOrder ? nativeCompare : compareCodePoints;\n  const capacity', replace: '  const text = nativeCompare;\n  const capacity', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-domain-desc-from-start', area: 'lists', file: MATRIX, find: ': Array.from(rows.subarray(rows.length - n)).reverse();', replace: ': Array.from(rows.subarray(0, n)).reverse();', tests: MATRIX_TESTS, project: UNIT },
  { name: 'matrix-counts-first-list-only', area: 'lists', file: MATRIX, find: '    for (let t = first; t < k; t++) {\n      const list = lists[t]!;\n      const i = next[t]!;', replace: '    for (let t = first; t <= first; t++) {\n      const list = lists[t]!;\n      const i = next[t]!;', tests: MATRIX_TESTS, project: UNIT },
  // ---- competitors.ts: the interface's thresholds, the overlap, kept lists
  { name: 'competitors-five-shared-left-out', area: 'lists', file: COMPETITORS, find: 'if (common < COMPETITOR_MIN_COMMON) return undefined;', replace: 'if (common <= COMPETITOR_MIN_COMMON) return undefined;', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-similarity-0.01-left-out', area: 'lists', file: COMPETITORS, find: 'return similarity >= COMPETITOR_MIN_SIMILARITY ? similarity : undefined;', replace: 'return similarity > COMPETITOR_MIN_SIMILARITY ? similarity : undefined;', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-union-not-less-common', area: 'lists', file: COMPETITORS, find: 'const similarity = common / (mine + theirs - common);', replace: 'const similarity = common / (mine + theirs);', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-self-listed', area: 'lists', file: COMPETITORS, find: '        if (c === t) continue;\n', replace: '', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-counts-not-reset', area: 'lists', file: COMPETITORS, find: '      counts[c] = 0;\n', replace: '', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-kept-rows-handed-out', area: 'lists', file: COMPETITORS, find: '.slice(page.offset).map((row) => ({ ...row })) };', replace: '.slice(page.offset) };', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-tie-break-follows-direction', area: 'lists', file: COMPETITORS, find: 'return byField !== 0 ? sign * byField : compareCodePoints(a.domain, b.domain);', replace: 'return byField !== 0 ? sign * byField : sign * compareCodePoints(a.domain, b.domain);', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-kept-over-bound', area: 'lists', file: COMPETITORS, find: 'this.#kept = new BoundedCache(keepBytes,', replace: 'this.#kept = new BoundedCache(Infinity,', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-kept-rows-not-weighed', area: 'lists', file: COMPETITORS, find: 'ENTRY_BYTES + rows.length * COMPETITOR_ROW_BYTES', replace: 'ENTRY_BYTES + rows.length', tests: COMPETITORS_TESTS, project: UNIT },
  { name: 'competitors-kept-list-not-used', area: 'lists', file: COMPETITORS, find: 'if (kept !== undefined) return kept;', replace: 'void kept;', tests: COMPETITORS_TESTS, project: UNIT },
];
