/**
 * How the CLI and the MCP tools describe the service's refusal of a call: every detail of the error body, each with
 * its parameter (as the option that sets it), its rule and its message, and for a filter detail
 * the filter line with a caret under its place. The details and the kind of error are read from
 * the body by the client's `HttpError` (which reads the older shape too).
 *
 * @module
 * @internal
 */
import type { HttpError } from './errors.js';
import { sourceAndCaret } from '../errors/format.js';

/** What the description needs of an `HttpError`. */
type HttpFailure = Pick<HttpError, 'status' | 'url' | 'message' | 'requestId' | 'code' | 'details'>;

/** The filter the service was sent, from the request URL. */
function sentFilter(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('filter') ?? undefined;
  } catch {
    return undefined;
  }
}

const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/**
 * The description of a failed call: with details, a headline and one entry per detail; without,
 * the client's own message. `where` names a parameter as the command line sets it (`--limit`,
 * `<url>`).
 *
 * @internal
 */
export function describeHttpFailure(failure: HttpFailure, where: (parameter: string) => string = (p) => p): string {
  const details = failure.details;
  if (details.length === 0) return sentence(failure.message);
  const kind = failure.code;
  const request = failure.requestId ? ` (request ${failure.requestId})` : '';
  const count = details.length === 1 ? '1 problem' : `${details.length} problems`;
  const lines = [`the service refused the call with ${failure.status}${kind ? ` ${kind}` : ''}${request}, ${count}:`];
  const filter = sentFilter(failure.url);
  for (const detail of details) {
    const name = detail.parameter === undefined ? '' : `${where(detail.parameter)} `;
    const rule = detail.rule === undefined ? '' : `(${detail.rule})`;
    const label = `${name}${rule}`.trim();
    const offset = whole(detail.offset);
    const place = detail.parameter === 'filter' && filter !== undefined && offset !== undefined && offset <= filter.length ? sourceAndCaret(filter, offset, whole(detail.length) ?? 0) : undefined;
    const at = place ? ` at ${place.line}:${place.column}` : '';
    lines.push(`  ${label}${at}${label || at ? ': ' : ''}${sentence(detail.message)}`);
    if (place) lines.push(`    ${place.source}`, `    ${place.caret}`);
  }
  return lines.join('\n');
}

/**
 * A message of another module as the CLI prints it: a sentence ending in a question (a
 * did-you-mean) followed by a period, `...; did you mean links?.`, loses the period.
 *
 * @internal
 */
export function sentence(message: string): string {
  return message.replace(/\?\.(?=\s|$)/g, '?');
}
