/**
 * The reference server of the Backlink and Keyword Data Service (`backlink-query/server`).
 * Fastify, better-sqlite3, tldts, @duckdb/node-api and pg are optional dependencies (installed
 * with the package, left out by `npm install --omit=optional`), loaded on first use.
 *
 * @example
 * ```ts
 * import { openEmbeddedStore, startServer } from 'backlink-query/server';
 * const store = await openEmbeddedStore({ file: 'links.db' });
 * const server = await startServer({ store, port: 3000, keys: [{ id: 'me', key: 'my-secret-key', units: 100_000 }] });
 * ```
 *
 * @module
 */
export { backlinkQueryApp, type AppOptions } from './app.js';
export { createServer, startServer, type RunningServer, type ServerOptions } from './server.js';
export { loadParser, loadServerDeps, MissingDependencyError, isMissingDependencyError, type DomainParser, type MissingDependencyOptions, type ServerDeps, type StoreDeps } from './deps.js';

export { validateRequest, DEFAULT_ERROR_DOCS_URL, type RawQuery, type ValidateRequestOptions, type ValidationResult } from './validation/validate-request.js';
export { validationPlugin, requestParams, routeOperation, type ValidationPluginOptions } from './validation/fastify-plugin.js';
export type { RequestParams } from './validation/request-params.js';
export { ServiceError, isServiceError, errorEnvelope, errorKind, ERROR_KINDS, type ErrorDetail, type ErrorEnvelope, type ErrorKind, type ErrorStatus } from './errors.js';

export { openApiDocument } from './openapi.js';
export { querySchema, recordSchema, responseSchema, type JsonSchema } from '../catalogue/json-schema.js';
export { DEFAULT_MAX_LIMIT } from '../catalogue/parameters.js';
export { toCsv, csvColumns, CSV_DELIMITER } from '../catalogue/csv.js';
export { splitUrl, toTarget, type Scope, type Target, type UrlParts } from './target.js';
export { clockAt, formatTimestamp, NEW_DAYS } from './clock.js';

export type {
  Clock,
  CompetitorsQuery,
  GraphWriter,
  GroupedOperation,
  LoadStats,
  GroupedQuery,
  HistoryPoint,
  KeywordQuery,
  MatrixQuery,
  Page,
  RowsResult,
  Store,
  SummaryQuery,
} from './store/store.js';
export { hashKey, sqlLedger, type ApiKeyConfig, type ChargeResult, type Ledger, type SqlLedgerOptions, type StoredApiKey } from './store/ledger.js';
import type { ApiKeyConfig, Ledger, StoredApiKey } from './store/ledger.js';
/** @deprecated Use {@link ApiKeyConfig}: one API key as configured. */
export type KeyConfig = ApiKeyConfig;
/** @deprecated Use {@link StoredApiKey}: a stored API key. */
export type StoredKey = StoredApiKey;
/** @deprecated Use {@link Ledger}: where API keys and balances live. */
export type KeyLedger = Ledger;
export { openEmbeddedStore, type EmbeddedStore, type EmbeddedStoreOptions } from './store/engines/embedded/embedded-store.js';
export type { AppendType, DuckdbConnection, DuckdbConnectionOptions, DuckdbWriter, RowAppender } from './store/engines/duckdb/connection.js';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './store/engines/sqlite/sqlite-store.js';
export { migrate, MIGRATIONS } from './store/engines/sqlite/schema.js';
export { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from './store/engines/postgres/postgres-store.js';
export { openClickhouseStore, type ClickhouseStore, type ClickhouseStoreOptions } from './store/engines/clickhouse/clickhouse-store.js';
export type { ClickhouseShard, ShardOptions } from './store/engines/clickhouse/connection.js';

export { KeyRing } from './accounts/key-ring.js';
export { RateLimiter, DEFAULT_RATE_LIMITS, type Admission, type RateLimits } from './accounts/rate-limiter.js';
export { parseKeys, DEFAULT_KEY_UNITS, KeyConfigError, isKeyConfigError, type KeyConfigErrorCode } from './keys-config.js';
export { StoreError, isStoreError, StoreQueryError, isStoreQueryError, type StoreErrorCode } from './store/errors.js';

export { seedSample, seedSampleGraph, type SampleGraph, type SampleOptions, type SampleStats } from './sample/generate.js';
export { classC, linkRow, type DomainInput, type KeywordSnapshotInput, type LinkInput, type LinkRow, type TargetPageInput } from './store/inputs.js';
export type { CorsOrigins } from './plugins/cors.js';
export type { PostgresConnection } from './store/engines/postgres/connection.js';
export type { LinkSink } from './store/loads/writer.js';
export { normalizeKeyword, linkKey } from './store/inputs.js';
export { rollupKey } from './store/reads/relations.js';
export { createSqlStore, type SqlStoreOptions } from './store/engines/sql-engine.js';
export { NO_COUNT_BEFORE_LIMIT, StoreUnavailableError, isStoreUnavailable, type SqlConnection, type StoreDialect } from './store/connection.js';
export type { Fragment } from './store/fragment.js';
export { inThreadConnection, workerConnection, type WorkerConnectionOptions } from './store/engines/sqlite/connection.js';

// What the command line's server commands (src/cli/server) use: stores named as on the command
// line, the accounts of several processes, and the import reader.
export {
  isPostgresUrl,
  loadDepsFor,
  openLedgerAt,
  openStoreAt,
  type ClickhouseLocation,
  type LedgerLocation,
  type StoreLocation,
} from './store/open.js';
export { localAccounts, type Accounts } from './accounts/accounts.js';
export type { ChargeBookOptions } from './accounts/charge-book.js';
import type { ChargeBookOptions } from './accounts/charge-book.js';
/** @deprecated Use `ChargeBookOptions`. */
export type LedgerOptions = ChargeBookOptions;
export { remoteAccounts, shareAccounts } from './worker-accounts.js';
export { publicBaseUrl } from './errors.js';
export { EXPORT_FORMAT_NAMES, IMPORT_FORMAT_NAMES } from './import/formats.js';
export {
  formatOfFile, readImportFile, readLinkRecords, type ExportFormatName, type FieldKind, type FieldReport, type FormatReport, type ImportBatch, type ImportFormat,
  type ReadImportOptions, type ReadOptions, type RejectedLine,
} from './import/read-records.js';
export { ImportFileError, isImportFileError, type ImportFileErrorCode } from './import/import-error.js';
export { DerivedDomains } from './import/derived-domains.js';
export { importTemplate } from './import/template.js';
