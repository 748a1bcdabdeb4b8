/**
 * The meaning of each operation, one answer function per operation name (docs/operations.md
 * describes each). The route, validation, billing and output format are shared; only this
 * table knows what an operation computes.
 *
 * @module
 * @internal
 */
import type { OperationName } from '../../catalogue/operations.js';
import { ServiceError } from '../errors.js';
import type { GroupedOperation, Page } from '../store/store.js';
import { splitUrl, toTarget, type Scope, type Target } from '../target.js';
import type { RequestParams } from '../validation/request-params.js';
import type { Answer, AnswerContext, AnswerFn } from './answer-types.js';

/**
 * Keeps only the requested fields of a row, in the record's order.
 *
 * @example
 * ```ts
 * project({ a: 1, b: 2, c: 3 }, ['a', 'c']); // { a: 1, c: 3 }
 * ```
 */
function project(row: Readonly<Record<string, unknown>>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = row[field];
  return out;
}

function targetOf(url: string, scope: Scope, ctx: AnswerContext): Target {
  const target = toTarget(url, scope, ctx.parser);
  // Validation has already rejected urls without a host.
  if (!target) throw new ServiceError(400, 'The request is invalid.', [{ parameter: 'url', rule: 'invalid_url', message: 'url has no valid host name.' }]);
  return target;
}

const pageOf = (p: RequestParams): Page => ({ orderBy: p.order_by!, direction: p.direction!, limit: p.limit!, offset: p.offset ?? 0 });

/** The request values every list meta may echo. */
const listEcho = (p: RequestParams, target: Target | undefined, total: number) => ({
  url: p.url,
  urls: p.urls,
  scope: p.scope,
  effective_url: target?.effectiveUrl,
  direction: p.direction,
  order_by: p.order_by,
  limit: p.limit,
  offset: p.offset,
  filter: p.filterText,
  total,
});

const grouped = (operation: GroupedOperation): AnswerFn => async (p, ctx) => {
  const target = targetOf(p.url!, p.scope!, ctx);
  const result = await ctx.store.grouped(operation, { target, page: pageOf(p), filter: p.filter, clock: ctx.clock });
  const rows = result.rows.map((row) => project(row, p.fields));
  return { data: rows, meta: listEcho(p, target, result.total), lines: rows.length };
};

const overview: AnswerFn = async (p, ctx) => {
  const target = targetOf(p.url!, p.scope!, ctx);
  const record = await ctx.store.overview(target, ctx.clock);
  return { data: project(record, p.fields), meta: listEcho(p, target, 1), lines: 1 };
};

const summary: AnswerFn = async (p, ctx) => {
  const target = targetOf(p.url!, p.scope!, ctx);
  const to = p.date_to! > ctx.clock.month ? ctx.clock.month : p.date_to!;
  const result = await ctx.store.summary({ target, from: p.date_from, to, limit: p.limit! });
  const rows = result.rows.map((row) => project({ ...row, url: p.url, scope: p.scope }, p.fields));
  const meta = { ...listEcho(p, target, result.total), date_from: p.date_from ?? null, date_to: p.date_to };
  return { data: rows, meta, lines: rows.length };
};

const scoreProfile: AnswerFn = async (p, ctx) => {
  const target = targetOf(p.url!, p.scope!, ctx);
  const rows = await ctx.store.scoreProfile(target);
  return { data: rows.map((row) => project(row, p.fields)), meta: listEcho(p, target, rows.length), lines: rows.length };
};

const competitors: AnswerFn = async (p, ctx) => {
  const domain = splitUrl(p.domain!, ctx.parser)?.domain ?? p.domain!;
  const result = await ctx.store.competitors({ domain, page: pageOf(p) });
  const rows = result.rows.map((row) => project(row, p.fields));
  return { data: rows, meta: { ...listEcho(p, undefined, result.total), domain: p.domain }, lines: rows.length };
};

const comparison: AnswerFn = async (p, ctx) => {
  const rows: Record<string, unknown>[] = [];
  for (const url of p.urls!) {
    const target = targetOf(url, p.scope!, ctx);
    const result = await ctx.store.summary({ target, from: ctx.clock.month, to: ctx.clock.month, limit: 1 });
    // A target without links has no history; its row is zeros with the target's own score.
    const point = result.rows[0] ?? {
      score: (await ctx.store.overview(target, ctx.clock)).score,
      backlinks_count: 0,
      domains_count: 0,
      follows_count: 0,
      month_date: `${ctx.clock.month}-01`,
    };
    rows.push(project({ ...point, url, scope: p.scope }, p.fields));
  }
  return { data: rows, meta: listEcho(p, undefined, rows.length), lines: rows.length };
};

const matrix: AnswerFn = async (p, ctx) => {
  const targets = p.urls!.map((url) => targetOf(url, p.scope!, ctx));
  const result = await ctx.store.matrix({ targets, page: pageOf(p), filter: p.filter });
  const rows = result.rows.map((row) => project(row, p.fields));
  return { data: rows, meta: listEcho(p, undefined, result.total), lines: rows.length };
};

const metrics: AnswerFn = async (p, ctx): Promise<Answer> => {
  const record = await ctx.store.keywordMetrics({ keyword: p.keyword!, country: p.country!, month: p.month! });
  if (!record) throw new ServiceError(404, `No metrics for this keyword in ${p.country} for ${p.month}.`);
  return { data: project(record, p.fields), meta: { keyword: p.keyword, country: p.country, month: p.month }, lines: 1 };
};

/**
 * The answer function of every operation.
 *
 * @example
 * ```ts
 * const answer = await ANSWERS.anchors(params, ctx);
 * ```
 */
export const ANSWERS: Readonly<Record<OperationName, AnswerFn>> = {
  overview,
  summary,
  links: grouped('links'),
  'ref-domains': grouped('ref-domains'),
  'ref-ips': grouped('ref-ips'),
  pages: grouped('pages'),
  anchors: grouped('anchors'),
  'score-profile': scoreProfile,
  competitors,
  comparison,
  matrix,
  metrics,
};
