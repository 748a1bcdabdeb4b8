/**
 * Named mutants for `npm run mutate`: small, deliberate bugs in the filter core, the SQL dialects,
 * pricing and ordering, each with the tests that must catch it. A mutant replaces one exact piece
 * of source text (which must occur exactly once in its file), so the list breaks loudly when the
 * code it names changes.
 *
 * @internal
 * @module
 */

import { CLI_MUTANTS } from './cli-mutants.js';
import { CLI_OUTPUT_MUTANTS } from './cli-output-mutants.js';
import { IMPORT_MUTANTS } from './import-mutants.js';
import { LEDGER_MUTANTS } from './ledger-mutants.js';
import { LISTS_MUTANTS } from './lists-mutants.js';
import { PLUGINS_MUTANTS } from './plugins-mutants.js';
import { STORE_MUTANTS } from './store-mutants.js';
import { TESTING_MUTANTS } from './testing-mutants.js';
import type { Mutant } from './mutant.js';

export type { Mutant } from './mutant.js';

const PRICES = ['test/server/http/prices.test.ts'];
const ORDER = ['test/server/http/order.test.ts', 'test/server/http/paging.test.ts'];
/** The fixture's links on the edge of the 30-day "new" window, answers by hand. */
const NEW = ['test/server/http/new-boundary.test.ts'];
/** Every store the server suite runs on (vitest.config.ts): embedded, SQLite, PostgreSQL, ClickHouse. */
const EVERY_STORE = ['all', 'server-embedded', 'server-sqlite', 'server-postgres', 'server-clickhouse'] as const;
const PLANS = ['test/server/store/query-plans.test.ts'];
const ABANDON = ['test/server/http/abandon.test.ts'];
const LEDGER = ['test/server/accounts/charge-book.test.ts'];
/** The server closed right after calls, many times: every charge written before the ledger and the store close. */
const SHUTDOWN = ['test/server/http/lifecycle.test.ts'];
const CANCEL = ['test/server/store/engines/cancel-engines.test.ts'];

/** The first list: the filter core, dialects, pricing, ordering, wire, clock, client, plans, abandoned calls, the ledger. */
const CORE_MUTANTS: readonly Mutant[] = [
  // ---- dialects: each must be caught by that engine's differential suites (default and linguistic collation)
  {
    name: 'postgres-compare-without-collate',
    area: 'dialects',
    file: 'src/sql/dialects/postgres.ts',
    find: 'return `${left} COLLATE "C" ${operator} ${right}`;',
    replace: 'return `${left} ${operator} ${right}`;',
    tests: ['test/differential/postgres.test.ts', 'test/differential/postgres-linguistic.test.ts'],
  },
  {
    name: 'postgres-like-without-collate',
    area: 'dialects',
    file: 'src/sql/dialects/postgres.ts',
    find: "return `${left} COLLATE \"C\" ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`;",
    replace: "return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`;",
    tests: ['test/differential/postgres.test.ts', 'test/differential/postgres-linguistic.test.ts'],
  },
  {
    name: 'postgres-decimal-not-cast',
    area: 'dialects',
    file: 'src/sql/dialects/postgres.ts',
    find: 'return Number.isInteger(value) ? placeholder : `CAST(${placeholder} AS double precision)`;',
    replace: 'return placeholder;',
    // The generated suites name the operation, so integer fields take the integer rewrite; the
    // cast matters where the lowering cannot know the type (a column mapped to a SQL expression).
    tests: ['test/differential/pinned.test.ts'],
  },
  {
    name: 'mysql-compare-not-binary',
    area: 'dialects',
    file: 'src/sql/dialects/mysql.ts',
    find: 'return `${left} ${operator} CAST(${right} AS BINARY)`;',
    replace: 'return `${left} ${operator} ${right}`;',
    tests: ['test/differential/mysql.test.ts', 'test/differential/mysql-linguistic.test.ts'],
  },
  {
    name: 'mysql-array-index-from-1',
    area: 'dialects',
    file: 'src/sql/dialects/mysql.ts',
    find: "'$[${position - 1}]'",
    replace: "'$[${position}]'",
    tests: ['test/differential/mysql.test.ts'],
  },
  {
    name: 'sqlite-compare-without-binary',
    area: 'dialects',
    file: 'src/sql/dialects/sqlite.ts',
    find: 'return `${left} COLLATE BINARY ${operator} ${right}`;',
    replace: 'return `${left} ${operator} ${right}`;',
    tests: ['test/differential/sqlite.test.ts', 'test/differential/sqlite-linguistic.test.ts'],
  },
  {
    name: 'sqlite-glob-question-mark-unescaped',
    area: 'dialects',
    file: 'src/sql/like-pattern.ts',
    find: "'?': '[?]'",
    replace: "'?': '?'",
    tests: ['test/differential/sqlite.test.ts'],
  },
  {
    name: 'duckdb-like-contains-as-prefix',
    area: 'dialects',
    file: 'src/sql/dialects/duckdb.ts',
    find: "if (leading && trailing) return { shape: 'contains', text };",
    replace: "if (leading && trailing) return { shape: 'prefix', text };",
    tests: ['test/unit/sql/to-sql.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'duckdb-like-suffix-as-prefix',
    area: 'dialects',
    file: 'src/sql/dialects/duckdb.ts',
    find: "prefix: 'starts_with', suffix: 'suffix'",
    replace: "prefix: 'starts_with', suffix: 'starts_with'",
    tests: ['test/unit/sql/to-sql.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'duckdb-not-like-kept-positive',
    area: 'dialects',
    file: 'src/sql/dialects/duckdb.ts',
    find: 'return negated ? `NOT (${test})` : test;',
    replace: 'return test;',
    tests: ['test/unit/sql/to-sql.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'duckdb-like-inner-percent-simple',
    area: 'dialects',
    file: 'src/sql/dialects/duckdb.ts',
    find: "if (text.includes('%') || (text === '' && (leading || trailing))) return undefined;",
    replace: "if (text === '' && (leading || trailing)) return undefined;",
    tests: ['test/unit/sql/to-sql.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'duckdb-compare-without-binary',
    area: 'dialects',
    file: 'src/sql/dialects/duckdb.ts',
    find: 'return `${left} COLLATE "binary" ${operator} ${right}`;',
    replace: 'return `${left} ${operator} ${right}`;',
    tests: ['test/differential/duckdb.test.ts', 'test/differential/duckdb-linguistic.test.ts'],
  },
  {
    name: 'like-underscore-unescaped',
    area: 'dialects',
    file: 'src/sql/like-pattern.ts',
    find: "char === '_' || char === escape ? escape + char : char",
    replace: 'char === escape ? escape + char : char',
    tests: ['test/differential/postgres.test.ts', 'test/differential/mysql.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'array-element-from-0',
    area: 'dialects',
    file: 'src/sql/compiler.ts',
    find: 'return `(${array})[${position}]`;',
    replace: 'return `(${array})[${position - 1}]`;',
    tests: ['test/differential/postgres.test.ts', 'test/differential/duckdb.test.ts'],
  },
  {
    name: 'sql-not-equal-as-equal',
    area: 'dialects',
    file: 'src/sql/compiler.ts',
    find: "{ '=': '=', '!=': '<>',",
    replace: "{ '=': '=', '!=': '=',",
    tests: ['test/differential/sqlite.test.ts'],
  },
  // ---- filter core: parser, validator, evaluator, printer, limits
  {
    name: 'evaluator-utf16-text-order',
    area: 'filter core',
    file: 'src/evaluate/text-order.ts',
    find: 'if (unit < 0xd800) return unit;',
    replace: 'return unit;',
    tests: ['test/unit/evaluate/text-order.test.ts', 'test/differential/sqlite.test.ts'],
  },
  {
    name: 'evaluator-like-pieces-overlap',
    area: 'filter core',
    file: 'src/evaluate/like.ts',
    find: 'if (end < first.length || !value.startsWith(first)',
    replace: 'if (!value.startsWith(first)',
    tests: ['test/unit/evaluate/like.test.ts', 'test/differential/sqlite.test.ts'],
  },
  {
    name: 'evaluator-closure-le-as-lt',
    area: 'filter core',
    file: 'src/evaluate/closure-mode.ts',
    find: "'<=': (name, c) => (row) => (row[name] as Scalar) <= c,",
    replace: "'<=': (name, c) => (row) => (row[name] as Scalar) < c,",
    tests: ['test/unit/evaluate/modes.property.test.ts', 'test/differential/sqlite.test.ts'],
  },
  {
    name: 'parser-or-drops-right-operand',
    area: 'filter core',
    file: 'src/syntax/parser.ts',
    find: 'operands.push(this.SUBRULE2(this.andExpr));',
    replace: 'this.SUBRULE2(this.andExpr);',
    tests: ['test/unit/syntax', 'test/conformance/corpus.test.ts'],
  },
  {
    name: 'validator-like-on-numbers',
    area: 'filter core',
    file: 'src/validate/validate.ts',
    find: "if (type !== 'string' && type !== 'timestamp') {\n      issues.push({ code: 'operator_not_allowed'",
    replace: "if (type === 'boolean') {\n      issues.push({ code: 'operator_not_allowed'",
    tests: ['test/unit/validate', 'test/conformance/corpus.test.ts'],
  },
  {
    name: 'limits-length-off-by-one',
    area: 'filter core',
    file: 'src/syntax/parse.ts',
    find: 'if (text.length > limits.maxLength) {',
    replace: 'if (text.length > limits.maxLength + 1) {',
    tests: ['test/property/limits.test.ts', 'test/conformance/corpus.test.ts'],
  },
  // The parse cache weighs each result by its text and counts one per context (a bound of 256 of the longest).
  {
    name: 'parse-cache-text-not-weighed',
    area: 'filter core',
    file: 'src/syntax/parse.ts',
    find: '(entries, text) => entries.length * (RESULT_BYTES + textBytes(text))',
    replace: '(entries) => entries.length * RESULT_BYTES',
    tests: ['test/unit/syntax/parse-cache.test.ts'],
    project: 'unit',
  },
  {
    name: 'parse-cache-one-result-per-text',
    area: 'filter core',
    file: 'src/syntax/parse.ts',
    find: '(entries, text) => entries.length * (RESULT_BYTES + textBytes(text))',
    replace: '(_entries, text) => RESULT_BYTES + textBytes(text)',
    tests: ['test/unit/syntax/parse-cache.test.ts'],
    project: 'unit',
  },
  {
    name: 'printer-quote-unescaped',
    area: 'filter core',
    file: 'src/print/printer.ts',
    find: "return `'${value.replace(/[\\\\']/g, (c) => `\\\\${c}`)}'`;",
    replace: "return `'${value.replace(/[\\\\]/g, (c) => `\\\\${c}`)}'`;",
    tests: ['test/unit/print', 'test/property/round-trip.test.ts'],
  },
  // ---- pricing: the interface's Limits table, written out by hand in the tests
  { name: 'price-links-44', area: 'pricing', file: 'src/catalogue/operations.ts', find: "price: { per: 'line', units: 45 },", replace: "price: { per: 'line', units: 44 },", tests: PRICES },
  { name: 'price-metrics-19', area: 'pricing', file: 'src/catalogue/operations.ts', find: "price: { per: 'request', units: 20 },", replace: "price: { per: 'request', units: 19 },", tests: PRICES },
  {
    name: 'price-overview-per-line',
    area: 'pricing',
    file: 'src/catalogue/operations.ts',
    find: "price: { per: 'request', units: 45 },",
    replace: "price: { per: 'line', units: 45 },",
    tests: PRICES,
  },
  { name: 'price-summary-per-request', area: 'pricing', file: 'src/catalogue/operations.ts', find: "defaultIsCurrentMonth: true, doc: 'Last month, inclusive (default: current month)' },\n    },\n    price: { per: 'line', units: 40 },", replace: "defaultIsCurrentMonth: true, doc: 'Last month, inclusive (default: current month)' },\n    },\n    price: { per: 'request', units: 40 },", tests: PRICES },
  { name: 'price-ref-ips-40', area: 'pricing', file: 'src/catalogue/operations.ts', find: "price: { per: 'line', units: 20 },", replace: "price: { per: 'line', units: 40 },", tests: PRICES },
  { name: 'price-score-profile-2', area: 'pricing', file: 'src/catalogue/operations.ts', find: "price: { per: 'line', units: 1, maxLines: 101 },", replace: "price: { per: 'line', units: 2, maxLines: 101 },", tests: PRICES },
  {
    name: 'charge-at-least-one-line',
    area: 'pricing',
    file: 'src/server/routes/operation-route.ts',
    find: 'spec.price.units * answer.lines))) return reply.hijack();',
    replace: 'spec.price.units * Math.max(1, answer.lines)))) return reply.hijack();',
    tests: PRICES,
  },
  // ---- ordering
  {
    name: 'pages-always-ascending',
    area: 'ordering',
    file: 'src/server/routes/operation-answers.ts',
    find: 'const result = await ctx.store.grouped(operation, { target, page: pageOf(p),',
    replace: "const result = await ctx.store.grouped(operation, { target, page: operation === 'pages' ? { ...pageOf(p), direction: 'ASC' } : pageOf(p),",
    tests: ORDER,
  },
  {
    name: 'default-direction-ascending',
    area: 'ordering',
    file: 'src/catalogue/parameters.ts',
    find: "default: 'DESC',",
    replace: "default: 'ASC',",
    tests: ORDER,
  },
  {
    name: 'direction-ignored',
    area: 'ordering',
    file: 'src/server/store/reads/run-list.ts',
    find: "raw(page.direction === 'ASC' ? 'ASC' : 'DESC')",
    replace: "raw('DESC')",
    tests: ORDER,
  },
  {
    name: 'tie-break-descending',
    area: 'ordering',
    file: 'src/server/store/reads/run-list.ts',
    find: ", _key ASC`;",
    replace: ", _key DESC`;",
    tests: ORDER,
  },
  // ---- clock: "new" is first seen at or after now minus 30 days; one mutant per place it is computed
  { name: 'new-window-31-days', area: 'clock', file: 'src/server/clock.ts', find: 'export const NEW_DAYS = 30;', replace: 'export const NEW_DAYS = 31;', tests: NEW, project: EVERY_STORE },
  {
    name: 'new-links-strict',
    area: 'clock',
    file: 'src/server/store/reads/relations.ts',
    find: 'expressions: { is_new: sql`(l.first_seen_at >= ${clock.newSince})` }',
    replace: 'expressions: { is_new: sql`(l.first_seen_at > ${clock.newSince})` }',
    tests: NEW,
    project: EVERY_STORE,
  },
  {
    name: 'new-ref-domains-strict',
    area: 'clock',
    file: 'src/server/store/reads/relations.ts',
    find: 'is_new: sql`(min(l.first_seen_at) >= ${clock.newSince})`',
    replace: 'is_new: sql`(min(l.first_seen_at) > ${clock.newSince})`',
    tests: NEW,
    project: EVERY_STORE,
  },
  {
    name: 'new-ref-domains-rollup-strict',
    area: 'clock',
    file: 'src/server/store/reads/relations.ts',
    find: 'is_new: sql`(r.first_seen_at >= ${clock.newSince})`',
    replace: 'is_new: sql`(r.first_seen_at > ${clock.newSince})`',
    tests: NEW,
    project: EVERY_STORE,
  },
  {
    name: 'new-count-strict',
    area: 'clock',
    file: 'src/server/store/reads/reads.ts',
    find: 'sum(CASE WHEN l.first_seen_at >= ${newSince} THEN 1 ELSE 0 END)',
    replace: 'sum(CASE WHEN l.first_seen_at > ${newSince} THEN 1 ELSE 0 END)',
    tests: NEW,
    project: EVERY_STORE,
  },
  {
    name: 'new-count-rollup-strict',
    area: 'clock',
    file: 'src/server/store/reads/reads.ts',
    find: 'AND l.first_seen_at >= ${clock.newSince} AND l.first_seen_at < ${nextDay})`;',
    replace: 'AND l.first_seen_at > ${clock.newSince} AND l.first_seen_at < ${nextDay})`;',
    tests: NEW,
    // ClickHouse runs the same statement over its own tables (RelationSources).
    project: EVERY_STORE,
  },
  // ---- wire
  {
    name: 'unsupported-filter-not-answered',
    area: 'wire',
    file: 'src/server/app.ts',
    find: 'if (isUnsupportedError(error)) {',
    replace: 'if (false) {',
    tests: ['test/server/http/unsupported-filter.test.ts'],
    // The stores that refuse a filter they cannot run exactly (the embedded store and ClickHouse run them all).
    project: ['server-sqlite', 'server-postgres'],
  },
  {
    name: 'cors-list-granted-as-any-origin',
    area: 'wire',
    file: 'src/server/plugins/cors.ts',
    find: "origin: origins === '*' ? '*' : [...origins],",
    replace: "origin: '*',",
    tests: ['test/server/http/wire.test.ts'],
  },
  {
    name: 'csv-lf-line-ends',
    area: 'wire',
    file: 'src/catalogue/csv.ts',
    find: "return `${lines.join('\\r\\n')}\\r\\n`;",
    replace: "return `${lines.join('\\n')}\\n`;",
    tests: ['test/server/http/csv.test.ts'],
  },
  {
    name: 'csv-semicolon-unquoted',
    area: 'wire',
    file: 'src/catalogue/csv.ts',
    find: 'const NEEDS_QUOTES = /[;"\\r\\n]/;',
    replace: 'const NEEDS_QUOTES = /["\\r\\n]/;',
    tests: ['test/server/http/csv.test.ts'],
  },
  {
    name: 'health-refuses-its-key',
    area: 'wire',
    file: 'src/server/routes/service-routes.ts',
    find: ".filter((name) => route === 'balance' || name !== 'key')",
    replace: '',
    tests: ['test/server/http/health.test.ts'],
    project: 'server-embedded',
  },
  {
    name: 'not-found-suggests-interface-paths-only',
    area: 'wire',
    file: 'src/server/app.ts',
    find: "&& /^[A-Za-z0-9._~/-]+$/.test(route.url)) answered.push(route.url);",
    replace: "&& route.url.startsWith('/_api/')) answered.push(route.url);",
    tests: ['test/server/http/guard.test.ts'],
    project: 'server-embedded',
  },
  {
    name: 'serve-public-url-left-to-the-server',
    area: 'cli',
    file: 'src/cli/server/serve.ts',
    find: '        publicBaseUrl(publicUrl);\n',
    replace: '',
    tests: ['test/cli/serve.test.ts'],
    project: 'all',
  },
  {
    name: 'clickhouse-top-target-tie-by-last-name',
    area: 'cli',
    file: 'src/server/store/create-store.ts',
    find: 'ORDER BY r.backlinks_count DESC, r.tdomain LIMIT 1',
    replace: 'ORDER BY r.backlinks_count DESC, r.tdomain DESC LIMIT 1',
    tests: ['test/server/http/top-target.test.ts'],
    project: 'server-clickhouse',
  },
  // ---- client
  {
    name: 'client-retries-400',
    area: 'client',
    file: 'src/client/retry.ts',
    find: 'statusCodes: Object.freeze([408, 429,',
    replace: 'statusCodes: Object.freeze([400, 408, 429,',
    tests: ['test/client/plain-errors.test.ts'],
  },
  // ---- plans: an index of a default order whose tie-break runs the other way answers the same, but every page sorts
  {
    name: 'sqlite-ref-domains-tie-break-reversed',
    area: 'plans',
    file: 'src/server/store/engines/sqlite/schema.ts',
    find: 'CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain ASC);',
    replace: 'CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain DESC);',
    tests: PLANS,
  },
  {
    name: 'postgres-ref-domains-tie-break-reversed',
    area: 'plans',
    file: 'src/server/store/engines/postgres/schema.ts',
    find: 'CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain ASC);',
    replace: 'CREATE INDEX r_ref_domains_order ON r_ref_domains (tkey, backlinks_count DESC, source_domain DESC);',
    tests: PLANS,
  },
  {
    name: 'postgres-links-tie-break-reversed',
    area: 'plans',
    file: 'src/server/store/engines/postgres/schema.ts',
    find: 'CREATE INDEX links_by_domain ON links (target_domain, page_score DESC, id);',
    replace: 'CREATE INDEX links_by_domain ON links (target_domain, page_score DESC, id DESC);',
    tests: PLANS,
  },
  // ---- abandoned calls: the slot, the stop, the charge, admission; each engine's cancel
  {
    name: 'slot-freed-when-client-leaves',
    area: 'abandoned calls',
    file: 'src/server/plugins/guard.ts',
    find: '    this.#abort.abort();\n',
    replace: '    this.#abort.abort();\n    this.release();\n',
    tests: ABANDON,
  },
  {
    name: 'call-signal-not-passed',
    area: 'abandoned calls',
    file: 'src/server/store/call-signal.ts',
    find: 'return await calls.run(run, work);',
    replace: 'return await work();',
    tests: ABANDON,
  },
  {
    name: 'charge-kept-for-gone-client',
    area: 'abandoned calls',
    file: 'src/server/routes/operation-route.ts',
    find: '    ctx.accounts.release(charged.hold);\n    return false;\n',
    replace: '    ctx.accounts.commit(charged.hold);\n    return false;\n',
    tests: ABANDON,
  },
  {
    name: 'no-admission-before-work',
    area: 'abandoned calls',
    file: 'src/server/routes/operation-route.ts',
    find: '      const hold = await admit(ctx, call.keyId, spec, params);\n',
    replace: '      const hold = { keyId: call.keyId, units: worstCase(spec, params) };\n',
    tests: ABANDON,
  },
  {
    name: 'admission-ignores-limit',
    area: 'abandoned calls',
    file: 'src/server/routes/operation-route.ts',
    find: 'const lines = params.limit ?? params.urls?.length ?? spec.price.maxLines;',
    replace: 'const lines = 1;',
    tests: ABANDON,
  },
  // ---- the ledger: holds, writes after the answer, group commit, retries, the last write on close
  {
    name: 'charged-when-connection-closes-first',
    area: 'ledger',
    file: 'src/server/routes/operation-route.ts',
    find: "response.once('finish', once(true)).once('close', once(false));",
    replace: "response.once('finish', once(true)).once('close', once(true));",
    tests: ABANDON,
  },
  {
    name: 'holds-not-counted',
    area: 'ledger',
    file: 'src/server/accounts/charge-book.ts',
    find: 'return (state.stored ?? 0) - state.held - state.charged;',
    replace: 'return (state.stored ?? 0) - state.charged;',
    tests: [...LEDGER, ...ABANDON],
  },
  {
    name: 'failed-write-dropped',
    area: 'ledger',
    file: 'src/server/accounts/charge-book.ts',
    find: '          state.committed += units;\n',
    replace: '',
    tests: LEDGER,
  },
  {
    name: 'no-group-commit',
    area: 'ledger',
    file: 'src/server/accounts/charge-book.ts',
    find: 'const batch = [...this.#keys].filter(([, state]) => state.committed > 0).map(([keyId, state]) => [keyId, state, state.committed] as const);',
    replace: 'const batch = [...this.#keys].filter(([, state]) => state.committed > 0).map(([keyId, state]) => [keyId, state, Math.min(state.committed, 45)] as const);',
    tests: LEDGER,
  },
  {
    name: 'lost-units-not-taken',
    area: 'ledger',
    file: 'src/server/accounts/charge-book.ts',
    find: 'const left = Math.min(result.remaining, units);',
    replace: 'const left = 0;',
    tests: LEDGER,
  },
  {
    name: 'close-without-last-write',
    area: 'ledger',
    file: 'src/server/plugins/store.ts',
    find: '      await accounts.flush();\n',
    replace: '',
    tests: [...ABANDON, ...SHUTDOWN],
  },
  {
    name: 'close-before-last-write',
    area: 'ledger',
    file: 'src/server/plugins/store.ts',
    find: '      await accounts.flush();\n      if (options.close === false) return;\n      if (ledger !== store.ledger) await ledger.close();\n      await store.close();\n',
    replace: '      if (options.close === false) return;\n      if (ledger !== store.ledger) await ledger.close();\n      await store.close();\n      await accounts.flush();\n',
    tests: [...ABANDON, ...SHUTDOWN],
  },
  {
    name: 'duckdb-not-interrupted',
    area: 'abandoned calls',
    file: 'src/server/store/engines/duckdb/connection.ts',
    find: "const done = onCallAbort(() => stop('cancel'));",
    replace: 'const done = () => undefined;',
    tests: CANCEL,
  },
  {
    name: 'sqlite-queued-statement-run',
    area: 'abandoned calls',
    file: 'src/server/store/engines/sqlite/connection.ts',
    find: "if (task.state && Atomics.compareExchange(new Int32Array(task.state), 0, 0, 1) !== 0) return fail(task, 'cancelled', 'CANCELLED');",
    replace: "if (false) return fail(task, 'cancelled', 'CANCELLED');",
    tests: CANCEL,
  },
  {
    name: 'sqlite-running-statement-not-interrupted',
    area: 'abandoned calls',
    file: 'src/server/store/engines/sqlite/connection.ts',
    find: 'interrupt = (slot) => void statement.get(slot);',
    replace: 'interrupt = (slot) => void slot;',
    tests: CANCEL,
  },
  {
    name: 'postgres-not-cancelled',
    area: 'abandoned calls',
    file: 'src/server/store/engines/postgres/connection.ts',
    find: ': cancels.cancel(pid).catch(() => void broken.add(client));',
    replace: ': Promise.resolve();',
    tests: CANCEL,
  },
  {
    name: 'postgres-pool-wait-kept',
    area: 'abandoned calls',
    file: 'src/server/store/engines/postgres/connection.ts',
    find: 'client = await connect(callSignal());',
    replace: 'client = await connect(undefined);',
    tests: CANCEL,
  },
  {
    name: 'clickhouse-not-killed',
    area: 'abandoned calls',
    file: 'src/server/store/engines/clickhouse/connection.ts',
    find: 'this.#post(`KILL QUERY WHERE query_id = ${clickhouseLiteral(queryId)} ASYNC`, false).catch(() => undefined);',
    replace: 'void queryId;',
    tests: ['test/server/store/engines/clickhouse/cancel.test.ts'],
  },
];

/** Every mutant `npm run mutate` knows. */
export const MUTANTS: readonly Mutant[] = [...CORE_MUTANTS, ...STORE_MUTANTS, ...LISTS_MUTANTS, ...PLUGINS_MUTANTS, ...LEDGER_MUTANTS, ...IMPORT_MUTANTS, ...TESTING_MUTANTS, ...CLI_MUTANTS, ...CLI_OUTPUT_MUTANTS];
