/**
 * A small reader for the EBNF notation of `grammar/filter.ebnf` (ISO 14977 style without commas),
 * producing a normalized tree that can be compared with Chevrotain's serialized grammar.
 *
 * @module
 * @internal
 */

/** A normalized grammar expression. */
export type Expr =
  | { readonly t: 'seq'; readonly items: readonly Expr[] }
  | { readonly t: 'alt'; readonly options: readonly Expr[] }
  | { readonly t: 'opt'; readonly body: Expr }
  | { readonly t: 'rep'; readonly body: Expr }
  | { readonly t: 'except'; readonly base: Expr; readonly minus: Expr }
  | { readonly t: 'name'; readonly name: string }
  | { readonly t: 'terminal'; readonly text: string }
  | { readonly t: 'special'; readonly text: string };

/** One rule of the file, with the section (`syntax` or `lexical`) it stands in. */
export interface EbnfRule {
  readonly name: string;
  readonly section: string;
  readonly body: Expr;
}

const TOKEN = /\s+|\(\*[\s\S]*?\*\)|[A-Za-z_][A-Za-z0-9_]*|"[^"]*"|'[^']*'|\?[^?]*\?|[=;|[\]{}()-]/y;
const SECTION = /^\(\*\s*=+\s*([a-z]+)\s*=+\s*\*\)$/;

/** Builds a sequence, collapsing a single item. */
export const seq = (items: readonly Expr[]): Expr => (items.length === 1 ? items[0]! : { t: 'seq', items });
/** Builds an alternation, collapsing a single option. */
export const alt = (options: readonly Expr[]): Expr => (options.length === 1 ? options[0]! : { t: 'alt', options });

interface Lexeme {
  readonly text: string;
  readonly section: string;
}

function lex(source: string): Lexeme[] {
  const out: Lexeme[] = [];
  let section = '';
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw new Error(`EBNF: unexpected ${JSON.stringify(source.slice(at, at + 20))}`);
    const text = m[0];
    const heading = SECTION.exec(text);
    if (heading) section = heading[1]!;
    if (/^\s/.test(text) || text.startsWith('(*')) continue;
    out.push({ text, section });
  }
  return out;
}

class Reader {
  private i = 0;
  constructor(private readonly lexemes: readonly Lexeme[]) {}

  rules(): EbnfRule[] {
    const rules: EbnfRule[] = [];
    while (this.i < this.lexemes.length) {
      const head = this.next();
      if (!/^[A-Za-z_]/.test(head.text)) throw new Error(`EBNF: rule name expected, got ${head.text}`);
      this.expect('=');
      const body = this.alternation();
      this.expect(';');
      rules.push({ name: head.text, section: head.section, body });
    }
    return rules;
  }

  private peek(): string | undefined {
    return this.lexemes[this.i]?.text;
  }

  private next(): Lexeme {
    const lexeme = this.lexemes[this.i++];
    if (!lexeme) throw new Error('EBNF: unexpected end');
    return lexeme;
  }

  private expect(text: string): void {
    const got = this.next().text;
    if (got !== text) throw new Error(`EBNF: expected ${text}, got ${got}`);
  }

  private alternation(): Expr {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return alt(options);
  }

  private sequence(): Expr {
    const items: Expr[] = [];
    while (this.peek() !== undefined && !['|', ';', ')', ']', '}'].includes(this.peek()!)) items.push(this.term());
    if (items.length === 0) throw new Error('EBNF: empty sequence');
    return seq(items);
  }

  private term(): Expr {
    const base = this.factor();
    if (this.peek() !== '-') return base;
    this.i++;
    return { t: 'except', base, minus: this.factor() };
  }

  private factor(): Expr {
    const { text } = this.next();
    const closers: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    if (text in closers) {
      const inner = this.alternation();
      this.expect(closers[text]!);
      return text === '(' ? inner : text === '[' ? { t: 'opt', body: inner } : { t: 'rep', body: inner };
    }
    if (text.startsWith('"') || text.startsWith("'")) return { t: 'terminal', text: text.slice(1, -1) };
    if (text.startsWith('?')) return { t: 'special', text: text.slice(1, -1).trim() };
    if (/^[A-Za-z_]/.test(text)) return { t: 'name', name: text };
    throw new Error(`EBNF: unexpected ${text}`);
  }
}

/** Reads every rule of an EBNF text. */
export function readEbnf(source: string): EbnfRule[] {
  return new Reader(lex(source)).rules();
}
