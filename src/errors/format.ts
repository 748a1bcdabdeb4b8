/**
 * Places and printing: line/column from offsets, and a formatter that shows the line with a caret
 * under the problem.
 *
 * @module
 */
import type { FilterIssue, IssueDraft } from './issue.js';
import { cut, isHighSurrogate, isLowSurrogate, MESSAGES } from './messages.js';

/** Starts of lines in `text` (after `\n`, after `\r` not followed by `\n`). @internal */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

/** 1-based line and column of `offset`. @internal */
export function locate(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** Completes drafts with message, line and column, sorted by offset. @internal */
export function finishIssues(drafts: readonly IssueDraft[], text: string): FilterIssue[] {
  const starts = lineStarts(text);
  return [...drafts]
    .sort((a, b) => a.offset - b.offset || a.length - b.length)
    .map((draft) => {
      const { line, column } = locate(starts, draft.offset);
      const message = draft.message ?? MESSAGES[draft.code](draft, text);
      return Object.freeze({ ...draft, message, line, column });
    });
}

/**
 * How many issues {@link formatIssues} prints by default; past them one line says how many more
 * there are (every issue stays in the `issues` array).
 */
export const MAX_FORMATTED_ISSUES = 10;

/**
 * How much of a source line {@link formatIssues} shows, in UTF-16 units: a longer line is cut to
 * this window around the caret, with `…` where it was cut.
 */
export const SOURCE_WINDOW = 80;

/** How much of the window comes before the caret when a line is cut. */
const WINDOW_BEFORE = 30;

/** Longest issue message printed whole; longer ones (never built by this package) are cut. */
const MAX_MESSAGE = 1000;

/** Options of {@link formatIssues}. */
export interface FormatOptions {
  /**
   * Print at most this many issues (default {@link MAX_FORMATTED_ISSUES}), then one line
   * `… and N more issues.`; `Infinity` prints them all.
   */
  readonly maxIssues?: number;
}

/**
 * Prints issues the way compilers do: the message, the line of text, and a caret under the problem.
 * The output stays small whatever the input: a line longer than {@link SOURCE_WINDOW} is cut
 * around the caret (with `…` marks), and past {@link MAX_FORMATTED_ISSUES} issues one last line
 * says how many more there are.
 *
 * @example
 * ```ts
 * const result = safeParseFilter('domain_scor > 50', { operation: 'links' });
 * if (!result.ok) console.log(formatIssues(result.issues, 'domain_scor > 50'));
 * // 1:1 unknown_field: Unknown field domain_scor; did you mean domain_score?
 * //   domain_scor > 50
 * //   ^^^^^^^^^^^
 * ```
 */
export function formatIssues(issues: readonly FilterIssue[], text: string, options: FormatOptions = {}): string {
  const max = options.maxIssues ?? MAX_FORMATTED_ISSUES;
  const shown = issues.length > max ? issues.slice(0, Math.max(0, max)) : issues;
  const starts = lineStarts(text);
  const lines = shown.map((issue) => {
    const { source, caret } = sourceWindow(text, starts, issue.line, issue.offset, issue.length);
    return `${issue.line}:${issue.column} ${issue.code}: ${cut(issue.message, MAX_MESSAGE)}\n  ${source}\n  ${caret}`;
  });
  const more = issues.length - shown.length;
  if (more > 0) lines.push(`… and ${more.toLocaleString('en-US')} more issue${more === 1 ? '' : 's'}.`);
  return lines.join('\n');
}

/**
 * The part of one line shown for an issue, and the caret line under it. Only the window is
 * copied and counted, so printing stays proportional to the window, not to the line.
 */
function sourceWindow(text: string, starts: readonly number[], line: number, offset: number, length: number): { source: string; caret: string } {
  const lineStart = starts[line - 1] ?? 0;
  const next = starts[line];
  let lineEnd = next === undefined ? text.length : next;
  while (lineEnd > lineStart && (text[lineEnd - 1] === '\n' || text[lineEnd - 1] === '\r')) lineEnd--;
  const start = Math.min(Math.max(offset, lineStart), lineEnd);
  const end = Math.min(Math.max(offset + length, start), lineEnd);
  let from = lineStart;
  let to = lineEnd;
  if (lineEnd - lineStart > SOURCE_WINDOW) {
    from = Math.max(lineStart, Math.min(start - WINDOW_BEFORE, lineEnd - SOURCE_WINDOW));
    to = Math.min(lineEnd, from + SOURCE_WINDOW);
    // Never cut an astral character (a surrogate pair) in two.
    if (from > lineStart && isLowSurrogate(text.charCodeAt(from)) && isHighSurrogate(text.charCodeAt(from - 1))) from--;
    if (to < lineEnd && isHighSurrogate(text.charCodeAt(to - 1)) && isLowSurrogate(text.charCodeAt(to))) to++;
  }
  const head = from > lineStart ? '…' : '';
  const tail = to < lineEnd ? '…' : '';
  const source = `${head}${text.slice(from, to).replace(/\t/g, ' ')}${tail}`;
  // The caret counts characters (code points), not UTF-16 units, so that it stands under the
  // problem even after an astral character such as an emoji.
  const before = head.length + codePoints(text, from, start);
  const under = codePoints(text, start, Math.min(end, to));
  return { source, caret: ' '.repeat(before) + '^'.repeat(Math.max(1, under)) };
}

/** The number of code points in `text` from `from` to `to` (a lone surrogate counts as one). */
function codePoints(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    count++;
    if (isHighSurrogate(text.charCodeAt(i)) && i + 1 < to && isLowSurrogate(text.charCodeAt(i + 1))) i++;
  }
  return count;
}

/**
 * The line of `text` holding `offset`, cut to the window as {@link formatIssues} cuts it, and a
 * caret line under `length` units from `offset` (for a place that is not a parsed issue, such as
 * a detail of the service's error answer).
 *
 * @internal
 */
export function sourceAndCaret(text: string, offset: number, length: number): { line: number; column: number; source: string; caret: string } {
  const starts = lineStarts(text);
  const place = locate(starts, Math.min(Math.max(0, offset), text.length));
  return { ...place, ...sourceWindow(text, starts, place.line, offset, Math.max(0, length)) };
}
