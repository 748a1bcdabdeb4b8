/**
 * The filter editor: CodeMirror 6 with the package's completion, its issues as lint diagnostics
 * (the range, the message with its did-you-mean, and a quick fix that takes the suggestion), and
 * token colours from the package's own lexer.
 *
 * @module
 * @internal
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState, RangeSetBuilder, StateEffect, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, placeholder, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { tokenMatcher } from 'chevrotain';
import type { CompletionOptions } from '../complete/types.js';
import type { FilterIssue } from '../errors/issue.js';
import { safeParseFilter } from '../syntax/parse.js';
import * as t from '../syntax/tokens.js';
import { completionSource, type CompleteFunction } from './completion-source.js';

/**
 * The issues of a text as CodeMirror diagnostics: one per issue, over its range (a point at the
 * end of the input), with a quick fix for a did-you-mean.
 *
 * @example
 * ```ts
 * issueDiagnostics(safeParseFilter('domain_scor > 1', { operation: 'links' }).issues);
 * // [{ from: 0, to: 11, severity: 'error', message: 'Unknown field domain_scor; did you mean domain_score?', actions: [...] }]
 * ```
 * @internal
 */
export function issueDiagnostics(issues: readonly FilterIssue[]): Diagnostic[] {
  return issues.map((issue) => ({
    from: issue.offset,
    to: issue.offset + issue.length,
    severity: 'error',
    source: issue.code,
    message: issue.message,
    ...(issue.suggestion !== undefined && {
      actions: [
        {
          name: `Use ${issue.suggestion}`,
          apply: (view: EditorView, from: number, to: number) => view.dispatch({ changes: { from, to, insert: issue.suggestion! } }),
        },
      ],
    }),
  }));
}

/** CSS classes of the token kinds. */
const MARKS = {
  keyword: Decoration.mark({ class: 'tok-keyword' }),
  literal: Decoration.mark({ class: 'tok-literal' }),
  operator: Decoration.mark({ class: 'tok-operator' }),
  number: Decoration.mark({ class: 'tok-number' }),
  string: Decoration.mark({ class: 'tok-string' }),
  field: Decoration.mark({ class: 'tok-field' }),
  punctuation: Decoration.mark({ class: 'tok-punctuation' }),
};

function markOf(token: Parameters<typeof tokenMatcher>[0]): Decoration | undefined {
  if ([t.And, t.Or, t.Not, t.Like].some((k) => tokenMatcher(token, k))) return MARKS.keyword;
  if (tokenMatcher(token, t.True) || tokenMatcher(token, t.False)) return MARKS.literal;
  if (tokenMatcher(token, t.CompareOp)) return MARKS.operator;
  if (tokenMatcher(token, t.NumberLit)) return MARKS.number;
  if (tokenMatcher(token, t.StringLit) || tokenMatcher(token, t.UnterminatedString)) return MARKS.string;
  if (tokenMatcher(token, t.Word)) return MARKS.field;
  if ([t.LParen, t.RParen, t.LBracket, t.RBracket].some((k) => tokenMatcher(token, k))) return MARKS.punctuation;
  return undefined;
}

function highlight(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const token of t.filterLexer.tokenize(view.state.doc.toString()).tokens) {
    const mark = markOf(token);
    if (mark && token.endOffset !== undefined) builder.add(token.startOffset, token.endOffset + 1, mark);
  }
  return builder.finish();
}

/** Token colours from the filter language's own lexer. */
const tokenColours = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = highlight(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = highlight(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** Says that the operation or the targets changed, so the diagnostics must be worked out again. */
const optionsChanged = StateEffect.define<null>();

/**
 * Re-checks the text after the operation or the number of targets changed (CodeMirror's linter
 * re-runs by itself only when the text changes).
 *
 * @example
 * ```ts
 * select.addEventListener('change', () => recheck(view));
 * ```
 * @internal
 */
export function recheck(view: EditorView): void {
  view.dispatch({ effects: optionsChanged.of(null) });
}

/** What {@link createEditor} needs. @internal */
export interface EditorSetup {
  readonly parent: HTMLElement;
  readonly doc: string;
  readonly complete: CompleteFunction;
  /** The operation and targets now selected. */
  readonly options: () => CompletionOptions;
  /** Called with the text after every change. */
  readonly onChange: (text: string) => void;
  /** The hint shown in the empty editor (default: a filter of links). */
  readonly placeholder?: string;
  /** The editor's accessible name (default `Filter`). */
  readonly label?: string;
}

/**
 * Creates the filter editor.
 *
 * @example
 * ```ts
 * const view = createEditor({ parent, doc: 'domain_score > 50', complete, options: () => ({ operation: 'links' }), onChange });
 * ```
 * @internal
 */
export function createEditor(setup: EditorSetup): EditorView {
  const lint = linter(
    (view) => {
      const text = view.state.doc.toString();
      if (text.trim() === '') return [];
      const result = safeParseFilter(text, setup.options());
      return result.ok ? [] : issueDiagnostics(result.issues);
    },
    { delay: 150, needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((effect) => effect.is(optionsChanged))) },
  );
  const extensions: Extension[] = [
    history(),
    closeBrackets(),
    bracketMatching(),
    placeholder(setup.placeholder ?? 'domain_score > 50 AND anchor LIKE \'%seo%\''),
    autocompletion({ override: [completionSource(setup.complete, setup.options)], icons: true }),
    lint,
    lintGutter(),
    tokenColours,
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': setup.label ?? 'Filter', spellcheck: 'false' }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) setup.onChange(update.state.doc.toString());
    }),
  ];
  return new EditorView({ parent: setup.parent, state: EditorState.create({ doc: setup.doc, extensions }) });
}
