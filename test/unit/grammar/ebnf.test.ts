/**
 * `grammar/filter.ebnf` against the Chevrotain parser: the syntax rules match the parser's rules
 * one to one (snake_case in the EBNF, camelCase in the parser) with the same structure, sub-rules
 * and tokens; the lexical names the syntax uses are the lexer's tokens.
 */
import { readFileSync } from 'node:fs';
import type { ISerializedGast } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { filterParser } from '../../../src/syntax/parser.js';
import * as tokens from '../../../src/syntax/tokens.js';
import { alt, readEbnf, seq, type EbnfRule, type Expr } from './ebnf-reader.js';

const rules = readEbnf(readFileSync(new URL('../../../grammar/filter.ebnf', import.meta.url), 'utf8'));
const syntax = rules.filter((r) => r.section === 'syntax');
const lexical = new Map(rules.filter((r) => r.section === 'lexical').map((r) => [r.name, r]));
const gast = filterParser.getSerializedGastProductions() as ISerializedGast[];
const nameOf = (node: ISerializedGast) => (node as unknown as { name: string }).name;

/** The lexer token each lexical name or terminal of the syntax part stands for. */
const TOKEN_OF: Readonly<Record<string, string>> = {
  name: 'Word',
  digits: 'Digits',
  number: 'NumberLit',
  string: 'StringLit',
  compare_op: 'CompareOp',
  '(': 'LParen',
  ')': 'RParen',
  '[': 'LBracket',
  ']': 'RBracket',
  AND: 'AND',
  OR: 'OR',
  NOT: 'NOT',
  LIKE: 'LIKE',
  TRUE: 'TRUE',
  FALSE: 'FALSE',
};

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const syntaxNames = new Set(syntax.map((r) => r.name));

/** EBNF expression in parser terms: rule references as `rule:camelName`, tokens as `token:Name`. */
function fromEbnf(e: Expr): unknown {
  switch (e.t) {
    case 'seq':
      return seq(e.items.map(fromEbnf) as Expr[]);
    case 'alt':
      return alt(e.options.map(fromEbnf) as Expr[]);
    case 'opt':
    case 'rep':
      return { t: e.t, body: fromEbnf(e.body) };
    case 'name':
      if (syntaxNames.has(e.name)) return `rule:${camel(e.name)}`;
      return `token:${TOKEN_OF[e.name] ?? `(unknown ${e.name})`}`;
    case 'terminal':
      return `token:${TOKEN_OF[e.text] ?? `(unknown "${e.text}")`}`;
    default:
      return `(not allowed in syntax: ${e.t})`;
  }
}

/** Chevrotain's serialized grammar in the same terms. */
function fromGast(node: ISerializedGast): unknown {
  const body = (defs: ISerializedGast[]) => seq(defs.map(fromGast) as Expr[]);
  const n = node as ISerializedGast & { name?: string; definition?: ISerializedGast[] };
  switch (node.type) {
    case 'NonTerminal':
      return `rule:${n.name}`;
    case 'Terminal':
      return `token:${n.name}`;
    case 'Alternation':
      return alt(n.definition!.map((a) => body((a as { definition: ISerializedGast[] }).definition)) as Expr[]);
    case 'Option':
      return { t: 'opt', body: body(n.definition!) };
    case 'Repetition':
      return { t: 'rep', body: body(n.definition!) };
    default:
      return `(unexpected ${node.type})`;
  }
}

/** The filter rule's EOF is checked by Chevrotain after the rule, not consumed in it. */
function withoutEof(rule: EbnfRule): Expr {
  if (rule.name !== 'filter') return rule.body;
  const body = rule.body;
  if (body.t !== 'seq' || body.items.at(-1)?.t !== 'name' || (body.items.at(-1) as { name: string }).name !== 'EOF') {
    throw new Error('filter must end in EOF');
  }
  return seq(body.items.slice(0, -1));
}

function namesIn(e: Expr, out: Set<string> = new Set()): Set<string> {
  if (e.t === 'name') out.add(e.name);
  else if (e.t === 'seq') e.items.forEach((i) => namesIn(i, out));
  else if (e.t === 'alt') e.options.forEach((o) => namesIn(o, out));
  else if (e.t === 'opt' || e.t === 'rep') namesIn(e.body, out);
  else if (e.t === 'except') (namesIn(e.base, out), namesIn(e.minus, out));
  return out;
}

function terminalsIn(e: Expr): string[] {
  if (e.t === 'terminal') return [e.text];
  if (e.t === 'alt') return e.options.flatMap(terminalsIn);
  return [`(not a plain alternative: ${e.t})`];
}

describe('grammar/filter.ebnf', () => {
  it('has the parser rules one to one, in the same order', () => {
    expect(syntax.map((r) => camel(r.name))).toEqual(gast.map(nameOf));
  });

  it.each(syntax.map((r) => [r.name, r] as const))('rule %s has the structure, sub-rules and tokens of the parser rule', (_, rule) => {
    const parserRule = gast.find((r) => nameOf(r) === camel(rule.name));
    expect(parserRule && nameOf(parserRule), `no parser rule ${camel(rule.name)}`).toBe(camel(rule.name));
    const definition = (parserRule as { definition: ISerializedGast[] }).definition;
    expect(fromEbnf(withoutEof(rule))).toEqual(seq(definition.map(fromGast) as Expr[]));
  });

  it('defines in its lexical part every name the syntax uses, and each is a lexer token', () => {
    const used = new Set(syntax.flatMap((r) => [...namesIn(r.body)]).filter((n) => !syntaxNames.has(n) && n !== 'EOF'));
    const tokenNames = new Set(tokens.allTokens.map((tok) => tok.name));
    for (const name of used) {
      expect(lexical.has(name), `${name} is defined in the lexical part`).toBe(true);
      expect(tokenNames.has(TOKEN_OF[name] ?? ''), `${name} maps to a lexer token`).toBe(true);
    }
    expect(used.size).toBeGreaterThan(0);
  });

  it('lists exactly the lexer comparison operators under compare_op', () => {
    const ebnf = terminalsIn(lexical.get('compare_op')!.body).sort();
    const lexer = tokens.allTokens
      .filter((tok) => tok.CATEGORIES?.includes(tokens.CompareOp) && tok !== tokens.CompareOp)
      .map((tok) => String(tok.PATTERN))
      .sort();
    expect(ebnf).toEqual(lexer);
  });

  it.each(['AND', 'OR', 'NOT', 'LIKE', 'TRUE', 'FALSE'])('spells keyword %s in any mix of case, as the lexer does', (word) => {
    const rule = lexical.get(word);
    expect(lexical.has(word), `${word} is defined`).toBe(true);
    const letters = rule!.body.t === 'seq' ? rule!.body.items : [rule!.body];
    expect(letters.map((l) => terminalsIn(l).sort().join(''))).toEqual([...word].map((c) => `${c}${c.toLowerCase()}`));
    const token = tokens.allTokens.find((tok) => tok.name === word)!;
    expect(tokens.filterLexer.tokenize(word.toLowerCase()).tokens[0]?.tokenType).toBe(token);
    expect(tokens.filterLexer.tokenize(`${word}X`).tokens[0]?.tokenType).toBe(tokens.Word);
  });
});
