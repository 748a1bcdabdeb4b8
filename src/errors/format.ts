/**
 * Places and printing: line/column from offsets, and a formatter that shows the line with a caret
 * under the problem.
 *
 * @module
 */
import type { FilterIssue, IssueDraft } from './issue.js';
import { MESSAGES } from './messages.js';

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
 * Prints issues the way compilers do: the message, the line of text, and a caret under the problem.
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
export function formatIssues(issues: readonly FilterIssue[], text: string): string {
  const starts = lineStarts(text);
  return issues
    .map((issue) => {
      const lineStart = starts[issue.line - 1] ?? 0;
      const next = starts[issue.line];
      let lineEnd = next === undefined ? text.length : next;
      while (lineEnd > lineStart && (text[lineEnd - 1] === '\n' || text[lineEnd - 1] === '\r')) lineEnd--;
      const lineText = text.slice(lineStart, lineEnd).replace(/\t/g, ' ');
      // The caret counts characters (code points), not UTF-16 units, so that it stands under the
      // problem even after an astral character such as an emoji.
      const before = [...text.slice(lineStart, Math.min(issue.offset, lineEnd))].length;
      const under = [...text.slice(issue.offset, Math.min(issue.offset + issue.length, lineEnd))].length;
      const caret = ' '.repeat(before) + '^'.repeat(Math.max(1, under));
      return `${issue.line}:${issue.column} ${issue.code}: ${issue.message}\n  ${lineText}\n  ${caret}`;
    })
    .join('\n');
}
