/**
 * The `filter` parameter validated locally (`validation: 'local'`, the default): text, an
 * AST or a builder result, validated for the operation and (for matrix) the number of targets,
 * and sent as the shortest text that means the same: the canonical text with each string in the
 * quotes that need fewer escapes, or the caller's own text when that is shorter still (the
 * service's length limit applies to what it receives). It needs the whole filter language
 * (Chevrotain included), so the client loads it with `import()` on the first call with a filter.
 *
 * @module
 * @internal
 */
import type { OperationName } from '../catalogue/operations.js';
import { FilterError } from '../errors/filter-error.js';
import { printFilter } from '../print/printer.js';
import { BoundedCache, ENTRY_BYTES, textBytes } from '../shared/bounded-cache.js';
import { safeParseFilter } from '../syntax/parse.js';
import { validateFilter } from '../validate/validate.js';
import { isBuilder, isFilterNode, notAFilter } from './filter-param.js';

/**
 * Filter texts checked for an operation (and target count), with the text sent for each: the
 * most recently used, each at most 4,096 characters, within the estimated bytes of about 256 of that
 * length (strings only: nothing shared can change). Only valid filters are kept; a filter with
 * issues is checked again, and throws again.
 */
const MAX_REMEMBERED_LENGTH = 4096;
const checkedTexts = new BoundedCache<string, string>(256 * (ENTRY_BYTES + 4 * MAX_REMEMBERED_LENGTH), (wire, key) => ENTRY_BYTES + textBytes(key) + textBytes(wire));

/** The number of targets of a call (its `urls`), which bounds `backlinks_counts[n]`. */
function targetsOf(params: Readonly<Record<string, unknown>>): number | undefined {
  const urls = params['urls'];
  return Array.isArray(urls) ? urls.length : undefined;
}

/**
 * Validates a filter for `operation` and returns the text to send, or `undefined` for a text that
 * is empty or only white space (which the interface treats as no filter).
 * Throws `FilterError` with every issue, or `ParameterError` when the value is not a filter at all.
 *
 * @example
 * ```ts
 * normalizeFilter('links', 'domain_score>50  and  anchor like "%seo%"', {});
 * // "domain_score > 50 AND anchor LIKE '%seo%'" (the canonical text, shorter here)
 * normalizeFilter('links', "anchor = 'it\\'s'", {});
 * // `anchor = "it's"` (in double quotes, where ' needs no escape)
 * ```
 */
export function normalizeFilter(operation: OperationName, value: unknown, params: Readonly<Record<string, unknown>>): string | undefined {
  const targets = targetsOf(params);
  const options = { operation, ...(targets !== undefined && { targets }) };
  if (typeof value === 'string') {
    if (/^[ \t\r\n]*$/.test(value)) return undefined;
    // A filter this client checked before (the next page, the same call again) is not parsed again.
    const key = `${operation}\u0000${targets ?? ''}\u0000${value}`;
    const known = checkedTexts.get(key);
    if (known !== undefined) return known;
    const result = safeParseFilter(value, options);
    if (!result.ok) throw new FilterError(result.issues, value);
    const printed = printFilter(result.filter, { quotes: 'shortest' });
    const wire = printed.length <= value.length ? printed : value;
    if (value.length <= MAX_REMEMBERED_LENGTH) checkedTexts.set(key, wire);
    return wire;
  }
  const ast = isBuilder(value) ? value.toAst() : value;
  if (!isFilterNode(ast)) throw notAFilter();
  const issues = validateFilter(ast, options);
  if (issues.length > 0) throw new FilterError(issues, printFilter(ast));
  return printFilter(ast, { quotes: 'shortest' });
}
