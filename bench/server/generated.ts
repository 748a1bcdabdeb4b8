/**
 * The generated-filter workload's requests (issue 27 item 4): filters drawn from the package's own
 * arbitraries (`filterAstArbitrary` of `backlink-query/testing`, printed canonically with
 * `printFilter`) on links, ref-domains and anchors of the three largest targets, each with an
 * `order_by` and a `direction`, all from one seed.
 *
 * Determinism: `generateRequests` is a pure function of its inputs. Every random choice goes
 * through fast-check with a seed derived from `settings.seed` (`fc.sample(arb, { seed, numRuns })`,
 * whose first n values do not depend on numRuns), so the same seed and the same value pools give
 * the same list on every machine. The pools come from the database (`valuePools` of rows fetched
 * over HTTP in a fixed order, see generated-run.ts), so the same seed on the same seeded database
 * gives the same requests.
 */
import fc from 'fast-check';
import { operations } from '../../src/catalogue/operations.js';
import type { FieldType, RecordSpec } from '../../src/catalogue/records.js';
import { printFilter } from '../../src/print/printer.js';
import { filterAstArbitrary, type FieldValuePools } from '../../src/testing/filters.js';

/** The operations of the workload, in equal shares. */
export const GENERATED_OPERATIONS = ['links', 'ref-domains', 'anchors'] as const;
export type GeneratedOperation = (typeof GENERATED_OPERATIONS)[number];

/**
 * Most conditions in one filter: a person's filter, not the language's limit of 100. The
 * arbitrary draws a single condition or an AND/OR group and keeps the first 6 conditions.
 */
export const MAX_CONDITIONS = 6;
/** Most levels of nested AND/OR groups (`a AND (b OR c)` is depth 2). */
export const MAX_DEPTH = 2;
/** `limit` of every request. */
export const LIMIT = 100;
/** Pages a warm filter is read through: offset 0, 100, ..., 900. */
export const WARM_PAGES = 10;
/** Connections of the concurrent phases. */
export const CONNECTIONS = 10;
/** The cold concurrent phase sends this many times the requests of the sequential one. */
export const COLD_CONCURRENT_FACTOR = 2;
/** The warm phase sends about this many times the requests of the cold sequential one (in filters of WARM_PAGES pages). */
export const WARM_FACTOR = 2;
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The phases, in the order they run; each request belongs to one. */
export const PHASES = ['cold-c1', 'cold-c10', 'warm'] as const;
export type Phase = (typeof PHASES)[number];

/** How many requests the generator makes, and from which seed. */
export interface GeneratorSettings {
  readonly seed: number;
  /** Cold requests sent one at a time. */
  readonly coldSingle: number;
  /** Cold requests sent by CONNECTIONS connections. */
  readonly coldConcurrent: number;
  /** Filters paged through in the warm phase (WARM_PAGES requests each). */
  readonly warmFilters: number;
  readonly maxConditions: number;
  readonly maxDepth: number;
  readonly limit: number;
  readonly warmPages: number;
}

/** The settings of `--generated-count N --generated-seed S`. */
export function generatorSettings(count: number, seed: number): GeneratorSettings {
  return {
    seed,
    coldSingle: count,
    coldConcurrent: COLD_CONCURRENT_FACTOR * count,
    warmFilters: Math.max(CONNECTIONS, Math.ceil((WARM_FACTOR * count) / WARM_PAGES)),
    maxConditions: MAX_CONDITIONS,
    maxDepth: MAX_DEPTH,
    limit: LIMIT,
    warmPages: WARM_PAGES,
  };
}

/** One (operation, target) the requests are spread over, with the values its filters draw from. */
export interface Slot {
  readonly operation: GeneratedOperation;
  /** A registrable domain, asked with scope ROOT_DOMAIN. */
  readonly target: string;
  readonly pools: FieldValuePools;
}

/** One generated request (a warm one stands for its WARM_PAGES pages). */
export interface GeneratedRequest {
  /** Position in the generated list, from 0. */
  readonly id: number;
  readonly phase: Phase;
  readonly operation: GeneratedOperation;
  readonly target: string;
  /** Canonical filter text (`printFilter`), unique in the list. */
  readonly filter: string;
  readonly orderBy: string;
  readonly direction: Direction;
}

/** The fields `order_by` takes for an operation: the scalar fields of its record, from the catalogue. */
export function sortableFields(operation: GeneratedOperation): { readonly name: string; readonly type: Exclude<FieldType, `${string}[]`> }[] {
  return Object.entries(operations[operation].record as RecordSpec).flatMap(([name, spec]) =>
    spec.type.endsWith('[]') ? [] : [{ name, type: spec.type as Exclude<FieldType, `${string}[]`> }],
  );
}

/** A 32-bit seed for one stream, derived from the run's seed and the stream's coordinates. */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  for (const part of parts) {
    h = Math.imul(h ^ part, 0xcc9e2d51);
    h = (h << 15) | (h >>> 17);
    h = Math.imul(h, 0x1b873593);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

/** Canonical filter texts of one slot, in the order `fc.sample` draws them, sampled in growing batches. */
function filterStream(slot: Slot, seed: number, settings: GeneratorSettings): () => string {
  const arbitrary = filterAstArbitrary(slot.operation, { maxConditions: settings.maxConditions, maxDepth: settings.maxDepth, pools: slot.pools }).map((ast) =>
    printFilter(ast),
  );
  let drawn: string[] = [];
  let next = 0;
  return () => {
    if (next >= drawn.length) {
      // fc.sample's first n values do not depend on numRuns: a larger sample extends the smaller one.
      const numRuns = Math.max(64, drawn.length * 2);
      if (numRuns > 100_000) throw new Error(`The generator found no new filter for ${slot.operation} on ${slot.target} in ${drawn.length} draws.`);
      drawn = fc.sample(arbitrary, { seed, numRuns });
    }
    return drawn[next++]!;
  };
}

/**
 * The requests of one run, in phase order (cold-c1, cold-c10, warm). Request i goes to slot
 * i mod slots.length (the slots are ordered so that operations alternate), which gives each
 * operation an equal share of every phase (to within one request). Its filter is the next text of
 * that slot's stream not already in the list nor in `exclude` (texts the server has seen), so
 * every text is unique: the cold sets are disjoint from each other and from the warm set. Orders
 * are drawn per operation as a seeded shuffle of every (sortable field, direction) pair, taken in
 * turn, so every pair appears once per round over that operation's requests.
 */
export function generateRequests(slots: readonly Slot[], settings: GeneratorSettings, exclude: ReadonlySet<string> = new Set()): GeneratedRequest[] {
  if (slots.length === 0) throw new Error('The generator needs at least one (operation, target).');
  const streams = slots.map((slot, i) => filterStream(slot, deriveSeed(settings.seed, 1, i), settings));
  const orders = new Map<GeneratedOperation, { pairs: { orderBy: string; direction: Direction }[]; next: number }>(
    GENERATED_OPERATIONS.map((operation, i) => {
      const pairs = sortableFields(operation).flatMap(({ name }) => DIRECTIONS.map((direction) => ({ orderBy: name, direction })));
      const [shuffled] = fc.sample(fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }), { seed: deriveSeed(settings.seed, 2, i), numRuns: 1 });
      return [operation, { pairs: shuffled!, next: 0 }];
    }),
  );
  const used = new Set(exclude);
  const counts: Record<Phase, number> = { 'cold-c1': settings.coldSingle, 'cold-c10': settings.coldConcurrent, warm: settings.warmFilters };
  const out: GeneratedRequest[] = [];
  for (const phase of PHASES) {
    for (let k = 0; k < counts[phase]; k++) {
      const s = out.length % slots.length;
      const slot = slots[s]!;
      let filter = streams[s]!();
      while (used.has(filter)) filter = streams[s]!();
      used.add(filter);
      const order = orders.get(slot.operation)!;
      const { orderBy, direction } = order.pairs[order.next++ % order.pairs.length]!;
      out.push({ id: out.length, phase, operation: slot.operation, target: slot.target, filter, orderBy, direction });
    }
  }
  return out;
}

/** The query string of a request (and of one of its pages when `offset` is given). */
export function requestQuery(request: GeneratedRequest, offset?: number): Record<string, string> {
  return {
    url: request.target,
    scope: 'ROOT_DOMAIN',
    filter: request.filter,
    order_by: request.orderBy,
    direction: request.direction,
    limit: String(LIMIT),
    ...(offset === undefined ? {} : { offset: String(offset) }),
  };
}

/** Path and query string of a request. */
export function requestPath(request: GeneratedRequest, offset?: number): string {
  return `${operations[request.operation].path}?${new URLSearchParams(requestQuery(request, offset)).toString()}`;
}

/** One line of text for a request (control characters as \u{..}, so that a line is a request). */
export function describeRequest(request: GeneratedRequest): string {
  return `${request.operation} ${request.target} order_by=${request.orderBy} ${request.direction}: ${visible(request.filter)}`;
}

/** Text with control characters (and U+2028/U+2029) written as \u{XX}. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
