/**
 * Completion, property-tested over generated filters cut at every offset, for every filterable
 * operation (and matrix with each target count):
 *
 * 1. every suggestion, inserted, keeps the valid prefix valid: the text it makes is still the
 *    start of a valid filter. The judge is the parser and validator themselves (`safeParseFilter`),
 *    given the new prefix followed by one of a few hand-written endings (a literal, an operator and
 *    a literal, `LIKE 'x'`, an index, or a whole condition) and the `)` still open;
 * 2. every valid next token is offered: the token the generated filter has next (or the one the
 *    cursor is in) is the first token of some suggestion (a number or string literal: some
 *    suggestion of that kind; `<>`: `!=`, the canonical spelling offered instead);
 * 3. with the whole text given (the cursor inside it), nothing is offered inside a number or a
 *    string, a suggestion replaces at most the rest of the word or operator at the cursor, and
 *    what it leaves before the cursor is still the start of a valid filter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { complete, printFilter, safeParseFilter, type Completion, type FilterNode } from '../../src/index.js';
import { filterCaseArbitrary } from '../../src/testing/index.js';
import { seeded, TARGETED } from './support.js';

/** Endings tried after a prefix, in order; `CONDITION` stands for a whole condition of the operation. */
const CONDITION = '\u0000condition';
const ENDINGS = ['', ' 0', " 'x'", ' true', " '2024'", ' = 0', " = 'x'", ' = true', " = '2024'", '[1] = 0', '1] = 0', '] = 0', " LIKE 'x'", ' ' + CONDITION];

/** `(` not yet closed in `text`, counted by a scanner of its own that skips quoted strings. */
function openParens(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return depth;
}

/**
 * The endings in the order to try them for a kind of suggestion: the last one that worked first.
 * Only the order changes (a text with an error takes the slow, recovering parse): the verdict is
 * the parser's alone.
 */
const ORDER = new Map<string, string[]>();

/** Whether `prefix` is the start of a valid filter, by trying the endings (with the open groups closed). */
function viable(prefix: string, condition: string, options: { operation: string; targets?: number }, hint: string): boolean {
  const closers = ')'.repeat(Math.max(0, openParens(prefix)));
  const order = ORDER.get(hint) ?? [...ENDINGS];
  ORDER.set(hint, order);
  const found = order.findIndex((ending) => safeParseFilter(prefix + ending.replace(CONDITION, condition) + closers, options).ok);
  if (found > 0) order.unshift(...order.splice(found, 1));
  return found >= 0;
}

/** The first condition of a tree, as text: a whole condition the operation accepts. */
function firstCondition(node: FilterNode): string {
  let current = node;
  while (current.kind === 'And' || current.kind === 'Or') current = current.operands[0]!;
  return printFilter(current);
}

/** A token of the filter text, by a scanner of its own (the language page's lexical rules). */
interface Token {
  readonly text: string;
  readonly start: number;
  readonly kind: 'word' | 'number' | 'string' | 'operator' | 'punctuation';
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const pattern = /[ \t\r\n]+|([A-Za-z_][A-Za-z0-9_]*)|(-?[0-9]+(?:\.[0-9]+)?)|('(?:[^'\\]|\\[^])*'|"(?:[^"\\]|\\[^])*")|(<=|<>|>=|!=|<|>|=)|([()[\]])/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null && match.index < text.length) {
    const [whole, word, number, string, operator] = match;
    if (word) out.push({ text: whole, start: match.index, kind: 'word' });
    else if (number) out.push({ text: whole, start: match.index, kind: 'number' });
    else if (string) out.push({ text: whole, start: match.index, kind: 'string' });
    else if (operator) out.push({ text: whole, start: match.index, kind: 'operator' });
    else if (match[5]) out.push({ text: whole, start: match.index, kind: 'punctuation' });
  }
  return out;
}

/** How a token reads for the comparison: keywords in upper case, `<>` as `!=`. */
const normal = (token: Token): string => (token.text === '<>' ? '!=' : token.kind === 'word' && /^(and|or|not|like|true|false)$/i.test(token.text) ? token.text.toUpperCase() : token.text);

/** Whether `suggestion` offers `next` as its first token. */
function offers(suggestion: Completion, next: Token, afterBracket: boolean): boolean {
  const first = tokenize(suggestion.insert.trimStart())[0];
  if (first === undefined) return false;
  if ((next.kind === 'number' && !afterBracket) || next.kind === 'string') return first.kind === next.kind;
  if (afterBracket) return first.kind === 'number' && Number(first.text) === Number(next.text); // `[02]` is index 2
  return normal(first) === normal(next);
}

describe.each(TARGETED)('completion for $operation with $targets targets', ({ operation, targets }) => {
  const options = { operation, ...(targets !== undefined && { targets }) };
  const runs = operation === 'matrix' && targets !== undefined ? 12 : 60;

  it('every suggestion keeps a valid prefix valid, and the next token of the filter is offered', () => {
    fc.assert(
      fc.property(filterCaseArbitrary(operation, { ...options, maxConditions: 4, maxDepth: 2, maxLength: 240 }), ({ text, ast }) => {
        const condition = firstCondition(ast);
        const tokens = tokenize(text);
        for (let offset = 0; offset <= text.length; offset++) {
          const prefix = text.slice(0, offset);
          const suggestions = complete(prefix, offset, options);
          for (const s of suggestions) {
            expect(s.from).toBeGreaterThanOrEqual(0);
            expect(s.to).toBeLessThanOrEqual(offset);
            const made = prefix.slice(0, s.from) + s.insert + prefix.slice(s.to);
            if (!viable(made, condition, options, `${s.kind} ${s.insert.trim()[0]}`)) {
              throw new Error(`${JSON.stringify(s.insert)} at ${s.from}-${s.to} in ${JSON.stringify(prefix)} makes ${JSON.stringify(made)}, the start of no valid filter`);
            }
          }
          // With the text after the cursor as well: nothing inside a number or a string, and a
          // suggestion replaces at most the rest of the word or operator the cursor is in.
          const inValue = tokens.some((token) => token.start < offset && offset < token.start + token.text.length && (token.kind === 'number' || token.kind === 'string'));
          const inText = complete(text, offset, options);
          if (inValue) expect(inText).toEqual([]);
          // The cursor inside a word or an operator: every suggestion replaces the rest of it.
          const midToken = [/[A-Za-z0-9_]/, /[=<>!]/].some((chars) => chars.test(text[offset - 1] ?? '') && chars.test(text[offset] ?? ''));
          for (const s of inText) {
            expect(s.to).toBeGreaterThanOrEqual(midToken ? offset + 1 : offset);
            expect(text.slice(offset, s.to)).toMatch(/^(?:[A-Za-z0-9_]*|[=<>!]*)$/);
            const made = text.slice(0, s.from) + s.insert;
            if (!viable(made, condition, options, `${s.kind} ${s.insert.trim()[0]}`)) {
              throw new Error(`${JSON.stringify(s.insert)} at ${s.from}-${s.to} in ${JSON.stringify(text)} (cursor ${offset}) makes ${JSON.stringify(made)}, the start of no valid filter`);
            }
          }
          // The token the cursor is in, or the next one.
          const index = tokens.findIndex((token) => token.start + token.text.length > offset);
          const next = tokens[index];
          if (next === undefined) continue;
          const inside = next.start < offset;
          if (inside && (next.kind === 'string' || next.kind === 'number')) continue; // inside a value: nothing to offer
          const afterBracket = tokens[index - 1]?.text === '[';
          const candidates = inside ? suggestions.filter((s) => s.from === next.start) : suggestions;
          if (!candidates.some((s) => offers(s, next, afterBracket))) {
            throw new Error(`${JSON.stringify(next.text)} is not offered at ${offset} in ${JSON.stringify(text)}: ${JSON.stringify(suggestions.map((s) => s.insert))}`);
          }
        }
      }),
      seeded(runs),
    );
  });
});
