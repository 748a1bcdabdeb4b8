/**
 * How the CLI prints the service's refusal of a call: every detail of the error body, each with
 * its parameter (as the option that sets it), its rule and its message, and for a filter detail
 * the filter line with a caret under its place.
 *
 * Reads both shapes of the body: `{ error: { type: ".../errors#invalid_request", code: 400,
 * details: [{ parameter, rule, message, offset?, length? }] } }`, and the older
 * `{ error: { code: "invalid_request", details: [{ parameter, code, message }] } }`. Anything
 * else in a body is ignored, never trusted to have a shape.
 *
 * @module
 * @internal
 */
import { sourceAndCaret } from '../errors/format.js';
import { sentence } from './args.js';

/** One detail, as read from a body of either shape. */
interface Detail {
  readonly message: string;
  readonly parameter: string | undefined;
  readonly rule: string | undefined;
  readonly offset: number | undefined;
  readonly length: number;
}

/** What the CLI needs of an `HttpError` (read structurally: the class is the client's). */
interface HttpFailure {
  readonly status: number;
  readonly url: string;
  readonly message: string;
  readonly requestId?: string | undefined;
  readonly envelope?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/** The details of a body, those that have a message; `[]` when there are none or the shape is foreign. */
function readDetails(error: Record<string, unknown>): Detail[] {
  const raw = error['details'];
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((d) => {
    const message = text(d['message']);
    if (message === undefined) return [];
    return [{ message, parameter: text(d['parameter']), rule: text(d['rule']) ?? text(d['code']), offset: whole(d['offset']), length: whole(d['length']) ?? 0 }];
  });
}

/** The kind of error: the anchor of `type` (new shape), else a string `code` (old shape). */
function kindOf(error: Record<string, unknown>): string | undefined {
  const type = text(error['type']);
  if (type !== undefined && type.includes('#')) return text(type.slice(type.lastIndexOf('#') + 1));
  return text(error['code']);
}

/** The filter the service was sent (the client sends it in canonical form), from the request URL. */
function sentFilter(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('filter') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The description of a failed call: with details, a headline and one entry per detail; without,
 * the client's own message. `where` names a parameter as the command line sets it (`--limit`,
 * `<url>`).
 *
 * @internal
 */
export function describeHttpFailure(failure: HttpFailure, where: (parameter: string) => string = (p) => p): string {
  const error = isRecord(failure.envelope) && isRecord(failure.envelope['error']) ? failure.envelope['error'] : undefined;
  const details = error ? readDetails(error) : [];
  if (!error || details.length === 0) return sentence(failure.message);
  const kind = kindOf(error);
  const request = failure.requestId ? ` (request ${failure.requestId})` : '';
  const count = details.length === 1 ? '1 problem' : `${details.length} problems`;
  const lines = [`the service refused the call with ${failure.status}${kind ? ` ${kind}` : ''}${request}, ${count}:`];
  const filter = sentFilter(failure.url);
  for (const detail of details) {
    const name = detail.parameter === undefined ? '' : `${where(detail.parameter)} `;
    const rule = detail.rule === undefined ? '' : `(${detail.rule})`;
    const label = `${name}${rule}`.trim();
    const placed = detail.parameter === 'filter' && filter !== undefined && detail.offset !== undefined && detail.offset <= filter.length;
    const place = placed ? sourceAndCaret(filter, detail.offset!, detail.length) : undefined;
    const at = place ? ` at ${place.line}:${place.column}` : '';
    lines.push(`  ${label}${at}${label || at ? ': ' : ''}${sentence(detail.message)}`);
    if (place) lines.push(`    ${place.source}`, `    ${place.caret}`);
  }
  return lines.join('\n');
}
