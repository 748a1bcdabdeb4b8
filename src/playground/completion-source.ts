/**
 * The package's filter completion (`complete(text, offset, { operation, targets })`) as a
 * CodeMirror completion source. Each suggestion carries its own replaced range and cursor, so each
 * option applies itself; CodeMirror neither filters nor re-sorts them (`complete` already answers
 * only what may come at the cursor, in its order).
 *
 * @module
 * @internal
 */
import type { Completion as CmCompletion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { pickedCompletion } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import type { Completion, CompletionKind, CompletionOptions } from '../complete/types.js';

/** The completion function of `src/complete`. @internal */
export type CompleteFunction = (text: string, offset: number, options: CompletionOptions) => readonly Completion[];

/** CodeMirror's icon class (`cm-completionIcon-<type>`) for each kind. */
const ICON: Readonly<Record<CompletionKind, string>> = {
  field: 'property',
  operator: 'operator',
  keyword: 'keyword',
  literal: 'constant',
  punctuation: 'text',
};

/** Closing brackets that CodeMirror's `closeBrackets` may already have typed after the cursor. */
const CLOSERS = new Set([']', ')']);

/**
 * The edit a suggestion makes in `doc`: its own range replaced, the cursor where it says. A
 * suggestion that is a closing bracket (`]`, `)`) with that same bracket right after its range
 * (typed by `closeBrackets` with the opening one) takes that bracket over instead of adding a
 * second one: `backlinks_counts[1|]` + `]` gives `backlinks_counts[1]|`, not `[1]]`.
 *
 * @example
 * ```ts
 * suggestionChange({ label: ']', insert: ']', kind: 'punctuation', from: 18, to: 18 }, 'backlinks_counts[1]');
 * // { from: 18, to: 19, insert: ']', cursor: 19 }
 * ```
 * @internal
 */
export function suggestionChange(suggestion: Completion, doc: string): { from: number; to: number; insert: string; cursor: number } {
  const to = CLOSERS.has(suggestion.insert) && doc.charAt(suggestion.to) === suggestion.insert ? suggestion.to + 1 : suggestion.to;
  return { from: suggestion.from, to, insert: suggestion.insert, cursor: suggestion.from + (suggestion.cursor ?? suggestion.insert.length) };
}

/** Makes the suggestion's edit ({@link suggestionChange}) in the view. */
function applier(suggestion: Completion) {
  return (view: EditorView, completion: CmCompletion): void => {
    const { from, to, insert, cursor } = suggestionChange(suggestion, view.state.doc.toString());
    view.dispatch({
      changes: { from, to, insert },
      selection: { anchor: cursor },
      annotations: pickedCompletion.of(completion),
      userEvent: 'input.complete',
      scrollIntoView: true,
    });
  };
}

/**
 * A CodeMirror completion source over `complete`, asked with the options current when it runs.
 *
 * @example
 * ```ts
 * autocompletion({ override: [completionSource(complete, () => ({ operation: 'links' }))] });
 * ```
 * @internal
 */
export function completionSource(complete: CompleteFunction, options: () => CompletionOptions) {
  return (context: CompletionContext): CompletionResult | null => {
    const text = context.state.doc.toString();
    const suggestions = complete(text, context.pos, options());
    // Typed characters open the list by themselves; at a blank position only an explicit request
    // (Ctrl+Space) or a just-typed separator does.
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*$/);
    if (suggestions.length === 0 || (!word && !context.explicit && !/[ ([]$/.test(text.slice(0, context.pos)))) return null;
    const from = Math.min(...suggestions.map((s) => s.from));
    return {
      from,
      to: context.pos,
      filter: false,
      options: suggestions.map((s) => ({
        label: s.label,
        type: ICON[s.kind],
        ...(s.detail !== undefined && { detail: s.detail }),
        ...(s.description !== undefined && { info: s.description }),
        apply: applier(s),
      })),
    };
  };
}
