/**
 * The runnable examples of the README and docs/*.md: fenced blocks marked with an HTML comment
 * `<!-- example ... -->` on the line right before the fence (docs/examples.md says how to mark
 * one). This file reads them; examples.test.ts runs them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the marker says. */
export interface ExampleOptions {
  /** The exit status every command of the example must end with (default 0). */
  readonly exit: number;
  /** A name other examples of the same page can continue (`after=`). */
  readonly id?: string;
  /** Run the code of the example of this page with this `id` first, in the same file (TS/JS only). */
  readonly after?: string;
  /** The file name the page tells the reader to save the code as (TS/JS only). */
  readonly file?: string;
}

/** One command of a transcript (`$ command`, then the output the page shows). */
export interface TranscriptStep {
  readonly command: string;
  readonly output: readonly string[];
}

export type ExampleKind =
  /** A shell script: run by bash, every command must succeed (or end with `exit`). */
  | { readonly kind: 'shell' }
  /** `$ command` lines, each followed by the output shown: each command is run and its output compared. */
  | { readonly kind: 'transcript'; readonly steps: readonly TranscriptStep[] }
  /** A JavaScript or TypeScript module. */
  | { readonly kind: 'module'; readonly language: 'js' | 'ts' };

export type DocExample = {
  /** The page, relative to the project folder (`README.md`, `docs/cli.md`). */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
  readonly options: ExampleOptions;
} & ExampleKind;

const MARKER = /^\s*<!--\s*example\b(.*?)-->\s*$/;
const FENCE = /^(\s*)(`{3,})\s*([^`\s]*)[^`]*$/;
const SHELLS = new Set(['', 'sh', 'bash', 'shell', 'console']);
const MODULES: Readonly<Record<string, 'js' | 'ts'>> = { js: 'js', mjs: 'js', javascript: 'js', ts: 'ts', mts: 'ts', typescript: 'ts' };

function parseOptions(text: string, where: string): ExampleOptions {
  const options: { exit: number; id?: string; after?: string; file?: string } = { exit: 0 };
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^(exit|id|after|file)=(\S+)$/.exec(word);
    if (!match) throw new Error(`${where}: unknown word ${JSON.stringify(word)} in an example marker (known: exit=N, id=NAME, after=NAME, file=NAME)`);
    const [, key, value] = match as unknown as [string, keyof ExampleOptions, string];
    if (key === 'exit') {
      if (!/^\d+$/.test(value)) throw new Error(`${where}: exit=${value} is not a status`);
      options.exit = Number(value);
    } else options[key] = value;
  }
  return options;
}

/** `$ command` (a line ending in `\` continues it), then the lines it prints. */
function transcript(lines: readonly string[]): TranscriptStep[] {
  const steps: { command: string; output: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('$ ')) {
      let command = line.slice(2);
      while (command.endsWith('\\') && i + 1 < lines.length) command = `${command}\n${lines[++i]}`;
      steps.push({ command, output: [] });
    } else steps.at(-1)!.output.push(line);
  }
  for (const step of steps) while (step.output.at(-1) === '') step.output.pop();
  return steps;
}

/** The marked examples of one page. */
export function examplesOf(page: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const found: DocExample[] = [];
  /** The line that closes the block opened at `open` with `ticks` (a line of at least as many backticks). */
  const closing = (open: number, ticks: string) => {
    let end = open + 1;
    while (end < lines.length && !(/^`+$/.test(lines[end]!.trim()) && lines[end]!.trim().length >= ticks.length)) end++;
    return end;
  };
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!);
    if (!marker) {
      // A block that is not an example is skipped whole: a marker shown inside it is text.
      const fence = FENCE.exec(lines[i]!);
      if (fence) i = closing(i, fence[2]!);
      continue;
    }
    const where = `${page}:${i + 1}`;
    const fence = FENCE.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`${where}: an example marker must be followed directly by a fenced block`);
    const [, indent, ticks, info] = fence as unknown as [string, string, string, string];
    const end = closing(i + 1, ticks);
    if (end === lines.length) throw new Error(`${where}: the fenced block never ends`);
    const body = lines.slice(i + 2, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    const options = parseOptions(marker[1]!, where);
    const code = `${body.join('\n')}\n`;
    const base = { page, line: i + 2, code, options };
    const language = MODULES[info.toLowerCase()];
    if (language) found.push({ ...base, kind: 'module', language });
    else if (SHELLS.has(info.toLowerCase())) {
      if (options.after || options.file) throw new Error(`${where}: after= and file= are for JavaScript and TypeScript examples`);
      const first = body.find((line) => line.trim() !== '') ?? '';
      found.push(first.startsWith('$ ') ? { ...base, kind: 'transcript', steps: transcript(body) } : { ...base, kind: 'shell' });
    } else throw new Error(`${where}: no way to run a \`\`\`${info} block (shell: sh, bash, console or none; modules: js, mjs, ts, mts)`);
    i = end;
  }
  for (const example of found) {
    const after = example.options.after;
    if (after !== undefined && !found.some((other) => other.options.id === after && other.line < example.line)) {
      throw new Error(`${page}:${example.line}: after=${after} names no earlier example of this page`);
    }
  }
  return found;
}

/** The pages whose examples run: the README and every page of docs/. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** Every marked example of the project's pages, in page order. */
export function allExamples(root: string): DocExample[] {
  return docPages(root).flatMap((page) => examplesOf(page, readFileSync(join(root, page), 'utf8')));
}

/** The code to run for a module example: the examples it continues (`after=`), then its own. */
export function moduleSource(example: DocExample, pageExamples: readonly DocExample[]): string {
  const chain: DocExample[] = [example];
  for (let current = example; current.options.after !== undefined; ) {
    current = pageExamples.find((other) => other.options.id === current.options.after)!;
    chain.unshift(current);
  }
  return chain.map((part) => part.code).join('\n');
}

/**
 * The output a module example shows: the text of `console.log(...); // text` on one line, or the
 * `//` comment lines right below a line that calls `console.log`. Each run of lines must appear
 * in the program's standard output, in order.
 */
export function shownOutput(code: string): string[][] {
  const lines = code.split('\n');
  const runs: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes('console.log(')) continue;
    const inline = /\);\s*\/\/ (.*)$/.exec(line);
    if (inline) {
      runs.push([inline[1]!]);
      continue;
    }
    const run: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s*\/\/( |$)/.test(lines[j]!); j++) run.push(lines[j]!.replace(/^\s*\/\/ ?/, ''));
    if (run.length > 0) runs.push(run);
  }
  return runs;
}

/** Whether `actual` lines match the `shown` lines, where `…` in a shown line stands for any text. */
export function linesMatch(shown: readonly string[], actual: readonly string[]): boolean {
  if (shown.length !== actual.length) return false;
  return shown.every((line, i) => lineMatches(line, actual[i]!));
}

function lineMatches(shown: string, actual: string): boolean {
  if (!shown.includes('…')) return shown === actual;
  const pattern = shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Whether each run of `runs` appears in `actual`, as consecutive lines, in order. */
export function runsAppear(runs: readonly (readonly string[])[], actual: readonly string[]): boolean {
  let from = 0;
  for (const run of runs) {
    let at = -1;
    for (let i = from; i + run.length <= actual.length && at < 0; i++) if (linesMatch(run, actual.slice(i, i + run.length))) at = i;
    if (at < 0) return false;
    from = at + run.length;
  }
  return true;
}
