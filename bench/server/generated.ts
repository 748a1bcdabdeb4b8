/**
 * The generated-filter workload's requests (issues 27 and 51): filters of 1-4 conditions on links,
 * ref-domains and anchors of the three largest targets, in every scope, each with an `order_by` and
 * a `direction`, all from one seed.
 *
 * A filter is a text condition on one of the operation's text fields, taken in turn so that every
 * text field gets its share (`LIKE '%word%'` with a word of the field's own values, `NOT LIKE`, `=`,
 * `!=`, `LIKE 'prefix%'`, `LIKE '%suffix'`, cut at word boundaries of a value), and 0-3 more
 * conditions, each another such text condition or a condition of the package's arbitrary
 * (`conditionArbitrary` of `backlink-query/testing`, on any field, literals from the target's own
 * values), joined by AND, by OR, or as `a AND (b OR c)`; printed canonically with `printFilter`.
 * Scopes turn with the requests: ROOT_DOMAIN (the registrable domain), SUBDOMAIN (a host),
 * SUBFOLDER (a folder below a host) and PAGE (a page), the hosts, folders and pages drawn from the
 * target URLs of the target's sampled links.
 *
 * Determinism: `generateRequests` is a pure function of its inputs. Every random choice goes
 * through fast-check with a seed derived from `settings.seed` (`fc.sample(arb, { seed, numRuns })`,
 * whose first n values do not depend on numRuns), so the same seed and the same value pools give
 * the same list on every machine. The pools come from the database (`valuePools` of rows fetched
 * over HTTP in a fixed order, see generated-run.ts), so the same seed on the same seeded database
 * gives the same requests.
 */
import fc, { type Arbitrary } from 'fast-check';
import * as ast from '../../src/ast/factories.js';
import type { Condition, FilterNode } from '../../src/ast/nodes.js';
import { filterFieldsOf } from '../../src/catalogue/filter-fields.js';
import { operations } from '../../src/catalogue/operations.js';
import type { FieldType, RecordSpec } from '../../src/catalogue/records.js';
import { printFilter } from '../../src/print/printer.js';
import { splitHostPath } from '../../src/server/target.js';
import { conditionArbitrary, type FieldValuePools } from '../../src/testing/filters.js';

/** The operations of the workload, in equal shares. */
export const GENERATED_OPERATIONS = ['links', 'ref-domains', 'anchors'] as const;
export type GeneratedOperation = (typeof GENERATED_OPERATIONS)[number];

/** The scopes of the workload, in equal shares (every operation in every scope). */
export const SCOPES = ['ROOT_DOMAIN', 'SUBDOMAIN', 'SUBFOLDER', 'PAGE'] as const;
export type Scope = (typeof SCOPES)[number];
/** The scopes whose target is drawn from the sampled links' target URLs. */
export type NarrowScope = Exclude<Scope, 'ROOT_DOMAIN'>;

/** Fewest and most conditions in one filter: a person's filter, not the language's limit of 100. */
export const MIN_CONDITIONS = 1;
export const MAX_CONDITIONS = 4;
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
  readonly minConditions: number;
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
    minConditions: MIN_CONDITIONS,
    maxConditions: MAX_CONDITIONS,
    maxDepth: MAX_DEPTH,
    limit: LIMIT,
    warmPages: WARM_PAGES,
  };
}

/** The `url` parameters of the narrow scopes of one target, drawn from its links' target URLs. */
export type ScopeTargets = Readonly<Record<NarrowScope, readonly string[]>>;

/** One (operation, target) the requests are spread over, with the values its filters draw from. */
export interface Slot {
  readonly operation: GeneratedOperation;
  /** A registrable domain, asked with scope ROOT_DOMAIN. */
  readonly target: string;
  readonly pools: FieldValuePools;
  /** Hosts, folders below a host, and pages of the target (`scopeTargets`). */
  readonly scopes: ScopeTargets;
}

/** One generated request (a warm one stands for its WARM_PAGES pages). */
export interface GeneratedRequest {
  /** Position in the generated list, from 0. */
  readonly id: number;
  readonly phase: Phase;
  readonly operation: GeneratedOperation;
  /** The registrable domain the request is about (its slot's). */
  readonly target: string;
  readonly scope: Scope;
  /** The `url` parameter: the domain (ROOT_DOMAIN), a host, a host and folder, or a page's URL. */
  readonly url: string;
  /** Canonical filter text (`printFilter`), unique in the list. */
  readonly filter: string;
  /** The text field of the filter's first text condition (the field whose turn it was). */
  readonly textField: string;
  readonly orderBy: string;
  readonly direction: Direction;
}

/** The fields `order_by` takes for an operation: the scalar fields of its record, from the catalogue. */
export function sortableFields(operation: GeneratedOperation): { readonly name: string; readonly type: Exclude<FieldType, `${string}[]`> }[] {
  return Object.entries(operations[operation].record as RecordSpec).flatMap(([name, spec]) =>
    spec.type.endsWith('[]') ? [] : [{ name, type: spec.type as Exclude<FieldType, `${string}[]`> }],
  );
}

/** The text fields a filter of an operation may name (type `string` in the catalogue), in the catalogue's order. */
export function textFields(operation: GeneratedOperation): string[] {
  return filterFieldsOf(operation)
    .filter((f) => f.type === 'string')
    .map((f) => f.name);
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

/**
 * The narrow scopes' targets of a registrable domain, from its links' target URLs, one entry per
 * URL given (so that a host, folder or page is drawn as often as the sampled links point into it:
 * the large ones most): the URL's host; each folder below the host that holds it (`host/a` and
 * `host/a/b` of `/a/b/c`); the page (the URL itself). Only when no URL lies in a folder do the
 * hosts stand in for the folders.
 */
export function scopeTargets(targetUrls: readonly string[]): ScopeTargets {
  const hosts: string[] = [];
  const folders: string[] = [];
  const pages: string[] = [];
  for (const url of targetUrls) {
    const parts = splitHostPath(url);
    if (!parts) continue;
    hosts.push(parts.host);
    pages.push(url);
    const segments = parts.path.replace(/[?#].*$/, '').split('/').slice(1, -1);
    for (let i = 1; i <= segments.length && segments[i - 1] !== ''; i++) folders.push(`${parts.host}/${segments.slice(0, i).join('/')}`);
  }
  return { SUBDOMAIN: hosts, SUBFOLDER: folders.length > 0 ? folders : hosts, PAGE: pages };
}

/** The words of a field's values: runs of letters and digits, at least 3 long, each once. */
export function wordsOf(values: readonly string[]): string[] {
  const words = new Set<string>();
  for (const value of values) for (const word of value.split(/[^\p{L}\p{N}]+/u)) if (word.length >= 3) words.add(word);
  return [...words];
}

/** Where a value's words start or end (0 < i < length): the cuts of a prefix or suffix pattern. */
function wordBoundaries(value: string): number[] {
  const chars = Array.from(value);
  const isWord = (c: string) => /[\p{L}\p{N}]/u.test(c);
  const cuts: number[] = [];
  let at = 0;
  for (let i = 1; i < chars.length; i++) {
    at += chars[i - 1]!.length;
    if (isWord(chars[i - 1]!) !== isWord(chars[i]!)) cuts.push(at);
  }
  return cuts;
}

/** The kinds of text condition, with their weights. */
export const TEXT_KINDS = ['contains', 'not-contains', 'equals', 'not-equals', 'prefix', 'suffix'] as const;
export type TextKind = (typeof TEXT_KINDS)[number];
const TEXT_WEIGHTS: Readonly<Record<TextKind, number>> = { contains: 4, 'not-contains': 1, equals: 2, 'not-equals': 1, prefix: 1, suffix: 1 };

/**
 * Text conditions on one field, from its own values: `LIKE '%word%'` with a word of them (`NOT
 * LIKE` one time in five), `=` and `!=` a value, `LIKE 'prefix%'` and `LIKE '%suffix'` cut at a
 * word boundary of a value. A field with no word borrows the slot's other fields' words; with no
 * value at all, the empty text.
 */
export function textConditionArbitrary(operation: GeneratedOperation, field: string, pools: FieldValuePools): Arbitrary<Condition> {
  const own = (name: string) => (pools.fields[name] ?? []).filter((v): v is string => typeof v === 'string');
  const values = own(field);
  const fieldWords = wordsOf(values);
  const words = fieldWords.length > 0 ? fieldWords : wordsOf(textFields(operation).flatMap(own));
  const f = ast.field(field);
  const value = values.length > 0 ? fc.constantFrom(...values) : fc.constant('');
  const word = words.length > 0 ? fc.constantFrom(...words) : fc.constant('a');
  const cut = (v: string, n: number, side: 'prefix' | 'suffix') => {
    const cuts = wordBoundaries(v);
    const at = cuts.length > 0 ? cuts[n % cuts.length]! : Math.ceil(v.length / 2);
    return side === 'prefix' ? `${v.slice(0, at)}%` : `%${v.slice(at)}`;
  };
  const kinds: Record<TextKind, Arbitrary<Condition>> = {
    contains: word.map((w) => ast.like(f, ast.stringLiteral(`%${w}%`))),
    'not-contains': word.map((w) => ast.like(f, ast.stringLiteral(`%${w}%`), true)),
    equals: value.map((v) => ast.comparison(f, '=', ast.stringLiteral(v))),
    'not-equals': value.map((v) => ast.comparison(f, '!=', ast.stringLiteral(v))),
    prefix: fc.tuple(value, fc.nat()).map(([v, n]) => ast.like(f, ast.stringLiteral(cut(v, n, 'prefix')))),
    suffix: fc.tuple(value, fc.nat()).map(([v, n]) => ast.like(f, ast.stringLiteral(cut(v, n, 'suffix')))),
  };
  return fc.oneof(...TEXT_KINDS.map((kind) => ({ weight: TEXT_WEIGHTS[kind], arbitrary: kinds[kind] })));
}

/**
 * Filters of one slot whose first text condition is on `field`: that condition and 0-3 more (each
 * a text condition on any text field, or the package's `conditionArbitrary` on any field), in a
 * drawn order, joined by AND (three times in five), OR, or as `a AND (b OR c ...)`.
 */
export function workloadFilterArbitrary(slot: Slot, field: string, settings: Pick<GeneratorSettings, 'minConditions' | 'maxConditions'>): Arbitrary<FilterNode> {
  const first = textConditionArbitrary(slot.operation, field, slot.pools);
  const anyText = fc.oneof(...textFields(slot.operation).map((name) => textConditionArbitrary(slot.operation, name, slot.pools)));
  const other = fc.oneof(anyText, conditionArbitrary(slot.operation, { pools: slot.pools }));
  return fc
    .tuple(
      first,
      fc.array(other, { minLength: settings.minConditions - 1, maxLength: settings.maxConditions - 1 }),
      fc.nat(),
      fc.constantFrom('and', 'and', 'and', 'or', 'mixed'),
    )
    .map(([head, rest, at, shape]) => {
      const conditions: FilterNode[] = [...rest];
      conditions.splice(at % (rest.length + 1), 0, head);
      if (conditions.length === 1) return conditions[0]!;
      if (shape === 'or') return ast.or(conditions);
      if (shape === 'mixed' && conditions.length >= 3) return ast.and([conditions[0]!, ast.or(conditions.slice(1))]);
      return ast.and(conditions);
    });
}

/** Canonical filter texts of one slot and text field, in the order `fc.sample` draws them, sampled in growing batches. */
function filterStream(slot: Slot, field: string, seed: number, settings: GeneratorSettings): () => string {
  const arbitrary = workloadFilterArbitrary(slot, field, settings).map((node) => printFilter(node));
  let drawn: string[] = [];
  let next = 0;
  return () => {
    if (next >= drawn.length) {
      // fc.sample's first n values do not depend on numRuns: a larger sample extends the smaller one.
      const numRuns = Math.max(64, drawn.length * 2);
      if (numRuns > 100_000) throw new Error(`The generator found no new filter for ${slot.operation} on ${slot.target} (${field}) in ${drawn.length} draws.`);
      drawn = fc.sample(arbitrary, { seed, numRuns });
    }
    return drawn[next++]!;
  };
}

/** The `url` parameter of a request in a scope: the domain, or an element of the slot's list drawn from `seed`. */
function scopeUrl(slot: Slot, scope: Scope, seed: number): string {
  if (scope === 'ROOT_DOMAIN') return slot.target;
  const list = slot.scopes[scope];
  if (list.length === 0) return slot.target;
  return list[(seed >>> 0) % list.length]!;
}

/**
 * The requests of one run, in phase order (cold-c1, cold-c10, warm). The j-th request of a phase
 * goes to slot j mod slots.length (the slots are ordered so that operations alternate) and scope
 * SCOPES[j mod 4]: with 9 slots, every (slot, scope) pair comes once in every 36 requests. Its
 * filter's first text condition is on the next text field of its operation (a turn per operation,
 * across the phases), and the filter is the next text of that (slot, field) stream not already in
 * the list nor in `exclude` (texts the server has seen), so every text is unique: the cold sets are
 * disjoint from each other and from the warm set. Orders are drawn per operation as a seeded
 * shuffle of every (sortable field, direction) pair, taken in turn.
 */
export function generateRequests(slots: readonly Slot[], settings: GeneratorSettings, exclude: ReadonlySet<string> = new Set()): GeneratedRequest[] {
  if (slots.length === 0) throw new Error('The generator needs at least one (operation, target).');
  const streams = new Map<string, () => string>();
  const streamOf = (s: number, field: string) => {
    const key = `${s}\u0000${field}`;
    let stream = streams.get(key);
    if (!stream) {
      const f = textFields(slots[s]!.operation).indexOf(field);
      streams.set(key, (stream = filterStream(slots[s]!, field, deriveSeed(settings.seed, 1, s, f), settings)));
    }
    return stream;
  };
  const orders = new Map<GeneratedOperation, { pairs: { orderBy: string; direction: Direction }[]; next: number }>(
    GENERATED_OPERATIONS.map((operation, i) => {
      const pairs = sortableFields(operation).flatMap(({ name }) => DIRECTIONS.map((direction) => ({ orderBy: name, direction })));
      const [shuffled] = fc.sample(fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }), { seed: deriveSeed(settings.seed, 2, i), numRuns: 1 });
      return [operation, { pairs: shuffled!, next: 0 }];
    }),
  );
  const fieldTurn = new Map<GeneratedOperation, number>();
  const used = new Set(exclude);
  const counts: Record<Phase, number> = { 'cold-c1': settings.coldSingle, 'cold-c10': settings.coldConcurrent, warm: settings.warmFilters };
  const out: GeneratedRequest[] = [];
  for (const phase of PHASES) {
    for (let j = 0; j < counts[phase]; j++) {
      const s = j % slots.length;
      const slot = slots[s]!;
      const scope = SCOPES[j % SCOPES.length]!;
      const fields = textFields(slot.operation);
      const turn = fieldTurn.get(slot.operation) ?? 0;
      fieldTurn.set(slot.operation, turn + 1);
      const textField = fields[turn % fields.length]!;
      const stream = streamOf(s, textField);
      let filter = stream();
      while (used.has(filter)) filter = stream();
      used.add(filter);
      const order = orders.get(slot.operation)!;
      const { orderBy, direction } = order.pairs[order.next++ % order.pairs.length]!;
      const url = scopeUrl(slot, scope, deriveSeed(settings.seed, 3, out.length));
      out.push({ id: out.length, phase, operation: slot.operation, target: slot.target, scope, url, filter, textField, orderBy, direction });
    }
  }
  return out;
}

/** The query string of a request (and of one of its pages when `offset` is given). */
export function requestQuery(request: GeneratedRequest, offset?: number): Record<string, string> {
  return {
    url: request.url,
    scope: request.scope,
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
  return `${request.operation} ${request.scope} ${request.url} order_by=${request.orderBy} ${request.direction}: ${visible(request.filter)}`;
}

/** Text with control characters (and U+2028/U+2029) written as \u{XX}. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
