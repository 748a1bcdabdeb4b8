/**
 * The client's types, all derived from the catalogue: the parameters of each operation, the row
 * type (narrowed by `fields`), the result, and the client object with one method per operation.
 *
 * @module
 */
import type { FilterNode } from '../ast/nodes.js';
import type { FieldName, OperationName, Operations } from '../catalogue/operations.js';
import type { RowOf } from '../catalogue/types.js';

/**
 * Anything with a `toAst()` method, such as a result of the filter builder.
 *
 * @example
 * ```ts
 * await client.links({ url: 'x.com', scope: 'PAGE', filter: { toAst: () => parseFilter('is_new = true') } });
 * ```
 */
export interface FilterBuilderLike {
  toAst(): FilterNode;
}

/**
 * A filter: text of the filter language, an AST, or a builder result.
 *
 * @example
 * ```ts
 * const filter: FilterInput = "domain_score > 50 AND anchor LIKE '%seo%'";
 * ```
 */
export type FilterInput = string | FilterNode | FilterBuilderLike;

/**
 * Flattens an intersection for readable hovers.
 *
 * @example
 * ```ts
 * type A = Simplify<{ a: 1 } & { b: 2 }>; // { a: 1; b: 2 }
 * ```
 */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};
/**
 * The catalogue's parameter rules of an operation.
 *
 * @example
 * ```ts
 * type S = ParamSpecsOf<'links'>['limit']; // { kind: 'integer'; default: 100; ... }
 * ```
 */
export type ParamSpecsOf<Op extends OperationName> = Operations[Op]['params'];

/**
 * The value a parameter rule takes in code.
 *
 * @example
 * ```ts
 * type V = ValueOfParam<'links', ParamSpecsOf<'links'>['scope']>; // 'ROOT_DOMAIN' | ... | 'PAGE'
 * ```
 */
export type ValueOfParam<Op extends OperationName, P> = P extends { readonly kind: 'string' | 'month' }
  ? string
  : P extends { readonly kind: 'string-list' }
    ? readonly string[]
    : P extends { readonly kind: 'enum'; readonly values: readonly (infer V)[] }
      ? V
      : P extends { readonly kind: 'integer' }
        ? number
        : P extends { readonly kind: 'fields' }
          ? readonly FieldName<Op>[]
          : P extends { readonly kind: 'order-by' }
            ? FieldName<Op>
            : P extends { readonly kind: 'filter' }
              ? FilterInput
              : never;

/**
 * The names of an operation's required parameters.
 *
 * @example
 * ```ts
 * type R = RequiredKeys<'links'>; // 'url' | 'scope'
 * ```
 */
export type RequiredKeys<Op extends OperationName> = {
  [K in keyof ParamSpecsOf<Op>]: ParamSpecsOf<Op>[K] extends { readonly required: true } ? K : never;
}[keyof ParamSpecsOf<Op>];

/**
 * The parameters of an operation, with the catalogue's required ones required.
 *
 * @example
 * ```ts
 * const params: ParamsOf<'links'> = { url: 'example.com', scope: 'ROOT_DOMAIN', limit: 10 };
 * ```
 */
export type ParamsOf<Op extends OperationName> = Simplify<
  { readonly [K in RequiredKeys<Op>]: ValueOfParam<Op, ParamSpecsOf<Op>[K]> } & {
    readonly [K in Exclude<keyof ParamSpecsOf<Op>, RequiredKeys<Op>>]?: ValueOfParam<Op, ParamSpecsOf<Op>[K]>;
  }
>;

/**
 * The fields a parameter object asks for, or `never` when it leaves `fields` out.
 *
 * @example
 * ```ts
 * type F = SelectedFields<{ fields: readonly ['anchor'] }>; // 'anchor'
 * ```
 */
export type SelectedFields<P> = P extends { readonly fields: readonly (infer F)[] } ? F : never;

/**
 * The row when `fields` is left out: every field, or the operation's default list (others optional).
 *
 * @example
 * ```ts
 * type R = DefaultRow<'comparison'>; // score, backlinks_count, ... required; month_date optional
 * ```
 */
export type DefaultRow<Op extends OperationName> = ParamSpecsOf<Op> extends { readonly fields: { readonly default: readonly (infer D)[] } }
  ? Simplify<Pick<RowOf<Op>, D & keyof RowOf<Op>> & Partial<RowOf<Op>>>
  : RowOf<Op>;

/**
 * The row type of a call: only the requested `fields` when given, else the default row.
 *
 * @example
 * ```ts
 * type R = RowFor<'links', { url: string; scope: 'PAGE'; fields: readonly ['anchor'] }>; // { anchor: string }
 * ```
 */
export type RowFor<Op extends OperationName, P> = [SelectedFields<P>] extends [never]
  ? DefaultRow<Op>
  : Simplify<Pick<RowOf<Op>, SelectedFields<P> & keyof RowOf<Op>>>;

/**
 * `data` of a call: one row for overview and keyword metrics, an array for list operations.
 *
 * @example
 * ```ts
 * type D = DataOf<'overview', RowOf<'overview'>>; // one record
 * ```
 */
export type DataOf<Op extends OperationName, Row> = Operations[Op]['shape'] extends 'list' ? Row[] : Row;

/**
 * `meta` of a JSON response: the common members, plus the request echoes of each operation.
 *
 * @example
 * ```ts
 * const { meta } = await client.links(params); meta.total;
 * ```
 */
export interface ResponseMeta {
  readonly request_id: string;
  readonly status_code: number;
  readonly success: boolean;
  /** Count of result rows, on list operations. */
  readonly total?: number;
  readonly [echo: string]: unknown;
}

/**
 * The result of a JSON call.
 *
 * @example
 * ```ts
 * const { data, meta, units } = await client.anchors({ url: 'x.com', scope: 'PAGE' });
 * ```
 */
export interface JsonResult<Op extends OperationName, Row> {
  readonly format: 'json';
  readonly meta: ResponseMeta;
  readonly data: DataOf<Op, Row>;
  /** Units this call cost, as the service reports it (`X-Units-Charged`); without that header, the catalogue's price for the rows returned. */
  readonly units: number;
  readonly requestId: string | undefined;
}

/**
 * The result of a `format: 'csv'` call: the raw text and the rows decoded with the catalogue's types.
 *
 * @example
 * ```ts
 * const { text, data } = await client.refIps({ url: 'x.com', scope: 'PAGE', format: 'csv' });
 * ```
 */
export interface CsvResult<Op extends OperationName, Row> {
  readonly format: 'csv';
  /** The body exactly as received. */
  readonly text: string;
  readonly data: DataOf<Op, Row>;
  readonly units: number;
  /** The `x-request-id` header, when sent (CSV has no `meta`). */
  readonly requestId: string | undefined;
}

/**
 * The result of a call with parameters `P`.
 *
 * @example
 * ```ts
 * type R = ResultOf<'links', { url: string; scope: 'PAGE'; format: 'csv' }>; // CsvResult
 * ```
 */
export type ResultOf<Op extends OperationName, P> = P extends { readonly format: 'csv' }
  ? CsvResult<Op, RowFor<Op, P>>
  : JsonResult<Op, RowFor<Op, P>>;

/**
 * Options of one call.
 *
 * @example
 * ```ts
 * await client.overview(params, { signal: AbortSignal.timeout(5_000), timeout: 2_000 });
 * ```
 */
export interface CallOptions {
  /** Aborts the call (and its retries); it then rejects with `AbortError`. */
  readonly signal?: AbortSignal;
  /** Per-attempt timeout for this call, in ms, instead of the client's. */
  readonly timeout?: number | false;
}

/**
 * Keys of `P` that `Allowed` does not have, mapped to `never` so extra parameters fail to compile.
 *
 * @example
 * ```ts
 * type N = NoExtra<{ a: 1; b: 2 }, { a: 1 }>; // { readonly b: never }
 * ```
 */
export type NoExtra<P, Allowed> = { readonly [K in Exclude<keyof P, keyof Allowed>]: never };

/**
 * One method of the client.
 *
 * @example
 * ```ts
 * const links: OperationMethod<'links'> = client.links;
 * ```
 */
export type OperationMethod<Op extends OperationName> = <const P extends ParamsOf<Op>>(
  params: P & NoExtra<P, ParamsOf<Op>>,
  options?: CallOptions,
) => Promise<ResultOf<Op, P>>;

/**
 * Operations whose data is a list of rows.
 *
 * @example
 * ```ts
 * const op: ListOperation = 'ref-domains';
 * ```
 */
export type ListOperation = { [K in OperationName]: Operations[K]['shape'] extends 'list' ? K : never }[OperationName];

/**
 * The parameters of a paginated call: as the operation's, without `limit` and `format` (pages are JSON).
 *
 * @example
 * ```ts
 * const params: PageParamsOf<'links'> = { url: 'x.com', scope: 'PAGE', offset: 100 };
 * ```
 */
export type PageParamsOf<Op extends ListOperation> = Simplify<Omit<ParamsOf<Op>, 'limit' | 'format'>>;

/**
 * Options of a paginated call.
 *
 * @example
 * ```ts
 * client.paginate.links(params, { maxRows: 1_000, pageSize: 250 });
 * ```
 */
export interface PaginateOptions {
  /** Stop after this many rows (the last page is shortened so no row beyond it is paid for). */
  readonly maxRows?: number;
  /** Rows per request; default the operation's default limit. */
  readonly pageSize?: number;
  readonly signal?: AbortSignal;
}

/**
 * Why pagination stopped; the return value of the iterator.
 *
 * @example
 * ```ts
 * const end = (await pages.next()).value; // when done: { reason: 'total', rows, units, pages }
 * ```
 */
export interface PaginationEnd {
  readonly reason: 'short-page' | 'total' | 'max-rows' | 'budget' | 'single-page';
  readonly rows: number;
  readonly units: number;
  readonly pages: number;
}

/**
 * One pagination method.
 *
 * @example
 * ```ts
 * for await (const row of client.paginate.anchors({ url: 'x.com', scope: 'PAGE' })) console.log(row.anchor);
 * ```
 */
export type PaginateMethod<Op extends ListOperation> = <const P extends PageParamsOf<Op>>(
  params: P & NoExtra<P, PageParamsOf<Op>>,
  options?: PaginateOptions,
) => AsyncGenerator<RowFor<Op, P>, PaginationEnd, undefined>;

/**
 * The method name of an operation (`'refDomains'` for `'ref-domains'`).
 *
 * @example
 * ```ts
 * type M = MethodName<'ref-domains'>; // 'refDomains'
 * ```
 */
export type MethodName<Op extends OperationName> = Operations[Op]['method'];

/**
 * The client's methods, one per operation, named as the catalogue says.
 *
 * @example
 * ```ts
 * const methods: OperationMethods = client;
 * ```
 */
export type OperationMethods = { readonly [Op in OperationName as MethodName<Op>]: OperationMethod<Op> };

/**
 * `client.paginate`: one iterator per list operation.
 *
 * @example
 * ```ts
 * const pagers: Paginators = client.paginate;
 * ```
 */
export type Paginators = { readonly [Op in ListOperation as MethodName<Op>]: PaginateMethod<Op> };
