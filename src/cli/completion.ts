/**
 * Shell completion. `backlink-query completion bash|zsh|fish` prints a script for that shell; the
 * script knows nothing of the CLI itself: at each Tab it runs the hidden
 * `backlink-query completion --complete -- <words...>` (the words after the program's name, the
 * last one the word being completed) and offers what that prints, as npm and gh do. So the
 * commands, options and values offered are always those of the installed version, and the filter
 * language's own {@link complete} completes the inside of `--filter`.
 *
 * The answer of `--complete` is one line `space` or `nospace` (whether the shell should add a space
 * after a single match: not inside a filter, a `--fields` list or after a directory), then one
 * candidate per line. A candidate replaces the whole word being completed, without its opening
 * quote: a shell keeps the quote the user typed (`--filter "domain_sc` completes to
 * `--filter "domain_score`).
 *
 * @module
 * @internal
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_NAMES, operations, isOperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { complete } from '../complete/complete.js';
import { IMPORT_FORMAT_NAMES } from '../server/index.js';
import { UsageError } from './args.js';
import { EXIT, type Command } from './command.js';
import { completionScript, SHELLS, type Shell } from './completion-scripts.js';
import { FIELDS_FORMATS } from './fields-command.js';
import { FILTER_CHECK_FORMATS } from './filter-check.js';
import { optionName, optionParams } from './operation-options.js';
import { OUTPUT_FORMATS } from './output.js';

const HELP = `Usage: backlink-query completion bash|zsh|fish

Prints a completion script for the shell: Tab then completes commands, options, their values
(operations, formats, scopes, countries, fields) and, inside --filter "...", the fields, operators
and values of the filter language for the operation being called.

Load it in the current shell:
  bash:  source <(backlink-query completion bash)
  zsh:   source <(backlink-query completion zsh)
  fish:  backlink-query completion fish | source

Or install it for every new shell:
  bash:  backlink-query completion bash > ~/.local/share/bash-completion/completions/backlink-query
  zsh:   backlink-query completion zsh > "\${fpath[1]}/_backlink-query"
  fish:  backlink-query completion fish > ~/.config/fish/completions/backlink-query.fish

The script runs "backlink-query completion --complete -- <words>" at each Tab, so it follows
the installed version; backlink-query must be on the PATH.
`;

/** The answer of `--complete`: whether a space follows a single match, and the candidates. @internal */
export interface Candidates {
  readonly space: boolean;
  readonly values: readonly string[];
}

/** A value-taking option and where its values come from. */
type Values = readonly string[] | 'files' | 'filter' | 'fields' | 'none';

const none: Candidates = { space: true, values: [] };

/** The long options of a command and whether each takes a value: its parser's own table. */
function optionsOf(command: Command): Map<string, boolean> {
  return new Map(Object.entries(command.options).map(([name, spec]) => [name, spec.type === 'string']));
}

/** The values an option takes, for a command. */
function valuesOf(command: string, option: string): Values {
  if (isOperationName(command)) {
    if (option === 'format') return OUTPUT_FORMATS;
    const param = optionParams(command).find(([name]) => optionName(name) === option)?.[1];
    if (param) return paramValues(param);
    return 'none';
  }
  if (command === 'filter check') {
    if (option === 'format') return FILTER_CHECK_FORMATS;
    if (option === 'operation') return OPERATION_NAMES;
  }
  if (command === 'fields' && option === 'format') return FIELDS_FORMATS;
  if (command === 'import' && option === 'format') return IMPORT_FORMAT_NAMES;
  if (command === 'import' && option === 'template') return ['ndjson', 'csv'];
  if (['db', 'rejects', 'keys'].includes(option)) return 'files';
  return 'none';
}

function paramValues(spec: ParamSpec): Values {
  switch (spec.kind) {
    case 'enum':
      return spec.values;
    case 'filter':
      return 'filter';
    case 'fields':
      return 'fields';
    case 'order-by':
      return 'fields';
    default:
      return 'none';
  }
}

/** A word as the shell passed it, without an opening quote the user has not closed yet. */
function unquoted(word: string): string {
  const quote = word[0];
  if ((quote === '"' || quote === "'") && !(word.length > 1 && word.endsWith(quote))) return word.slice(1);
  return word;
}

/** A whole quoted word (`"links"`) as its text. */
const dequoted = (word: string): string => (/^(["']).*\1$/s.test(word) ? word.slice(1, -1) : word);

const startingWith = (prefix: string, values: readonly string[], anyCase = false): string[] =>
  values.filter((value) => (anyCase ? value.toLowerCase().startsWith(prefix.toLowerCase()) : value.startsWith(prefix)));

/**
 * The candidates for the last word of `words` (the words after `backlink-query`, as the shell split
 * them; bash splits `--filter=x` into `--filter`, `=`, `x`, which is joined back here).
 *
 * @example
 * ```ts
 * candidatesFor(commands, ['li']); // { space: true, values: ['links'] }
 * candidatesFor(commands, ['links', 'example.com', '--filter', '"domain_sc']); // nospace, ['domain_score']
 * ```
 * @internal
 */
export function candidatesFor(commands: readonly Command[], shellWords: readonly string[]): Candidates {
  const words = withoutEquals(shellWords.length === 0 ? [''] : shellWords);
  const current = words[words.length - 1]!;
  const before = words.slice(0, -1).map(dequoted);
  const names = commands.map((c) => c.name);
  if (before.length === 0) {
    if (current.startsWith('-')) return { space: true, values: startingWith(current, ['--help', '--version']) };
    return { space: true, values: startingWith(current, [...new Set([...names.map((n) => n.split(' ')[0]!), 'help'])]) };
  }
  if (before[0] === 'help') return before.length === 1 ? { space: true, values: startingWith(current, names.filter((n) => !n.includes(' ')).concat('filter')) } : none;
  // The command named by the longest run of leading words; a group's first word alone offers the rest.
  const command = [...commands].sort((a, b) => b.name.length - a.name.length).find((c) => c.name.split(' ').every((w, i) => before[i] === w));
  if (!command) {
    const group = names.filter((n) => n.startsWith(`${before[0]} `));
    return before.length === 1 ? { space: true, values: startingWith(current, group.map((n) => n.split(' ')[1]!)) } : none;
  }
  const args = before.slice(command.name.split(' ').length);
  const options = optionsOf(command);
  // `--option=value` in one word (zsh, fish): the value's candidates, each after the same `--option=`.
  const eq = /^--([\w-]+)=/.exec(current);
  if (eq && options.get(eq[1]!)) return prefixed(eq[0], valueCandidates(command, args, eq[1]!, current.slice(eq[0].length)));
  const previous = args[args.length - 1];
  const previousOption = previous?.startsWith('--') && !previous.includes('=') ? previous.slice(2) : undefined;
  if (previousOption !== undefined && options.get(previousOption)) return valueCandidates(command, args, previousOption, current);
  if (current.startsWith('-')) {
    return { space: true, values: startingWith(current, [...options.keys()].map((name) => `--${name}`)) };
  }
  return positionalCandidates(command, args, current);
}

/**
 * bash splits `--opt=value` into `--opt`, `=`, `value` (and completes `value` alone): the `=` is
 * dropped, which leaves the `--opt value` form; with the cursor just after `=`, the value is still
 * to be typed (an empty word).
 */
function withoutEquals(words: readonly string[]): string[] {
  const out: string[] = [];
  words.forEach((word, i) => {
    const previous = words[i - 1];
    if (word === '=' && previous?.startsWith('--') && !previous.includes('=')) {
      if (i === words.length - 1) out.push('');
    } else out.push(word);
  });
  return out;
}

function prefixed(prefix: string, candidates: Candidates): Candidates {
  return { space: candidates.space, values: candidates.values.map((value) => `${prefix}${value}`) };
}

/** The value of `--option` in the arguments before the cursor (the last one given). */
function optionValue(args: readonly string[], option: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${option}`) value = args[i + 1];
    else if (args[i]!.startsWith(`--${option}=`)) value = args[i]!.slice(option.length + 3);
  }
  return value === undefined ? undefined : dequoted(value);
}

function valueCandidates(command: Command, args: readonly string[], option: string, word: string): Candidates {
  const values = valuesOf(command.name, option);
  if (values === 'files') return fileCandidates(word);
  if (values === 'filter') return filterCandidates(unquoted(word), command.name, args);
  if (values === 'fields') {
    if (!isOperationName(command.name)) return none;
    const fields = Object.keys(operations[command.name].record);
    // `--fields a,b,c`: the item after the last comma, the ones before kept.
    const text = unquoted(word);
    const comma = option === 'fields' ? text.lastIndexOf(',') + 1 : 0;
    const matches = startingWith(text.slice(comma), fields).map((field) => `${text.slice(0, comma)}${field}`);
    return { space: option !== 'fields', values: matches };
  }
  if (values === 'none') return none;
  return { space: true, values: startingWith(unquoted(word), values, true) };
}

function positionalCandidates(command: Command, args: readonly string[], word: string): Candidates {
  if (command.name === 'completion') return args.length === 0 ? { space: true, values: startingWith(word, SHELLS) } : none;
  if (command.name === 'import') return fileCandidates(word);
  if (command.name === 'fields') {
    // One <operation>: offered until one is given (a word that is not an option or its value).
    const given = args.some((arg, i) => !arg.startsWith('-') && !(i > 0 && /^(--format|-f)$/.test(args[i - 1]!)));
    return given ? none : { space: true, values: startingWith(word, OPERATION_NAMES) };
  }
  // `filter check "<filter>" --operation links`: the filter is the positional.
  if (command.name === 'filter check' && optionValue(args, 'operation') !== undefined) return filterCandidates(unquoted(word), command.name, args);
  return none;
}

/**
 * The filter with each completion of {@link complete} at its end applied: the text before the
 * replaced range, then the suggestion up to where its cursor goes (`'` of a `''` template, so the
 * user types the value next). Nothing for an unknown operation or a filter that cannot go on.
 */
function filterCandidates(text: string, command: string, args: readonly string[]): Candidates {
  const operation = command === 'filter check' ? optionValue(args, 'operation') : command;
  if (operation === undefined || !isOperationName(operation)) return { space: false, values: [] };
  const targets = command === 'matrix' ? matrixTargets(args) : command === 'filter check' ? Number(optionValue(args, 'targets')) || undefined : undefined;
  let suggestions: ReturnType<typeof complete>;
  try {
    suggestions = complete(text, text.length, { operation, ...(targets !== undefined && targets >= 1 && targets <= 6 && { targets }) });
  } catch {
    return { space: false, values: [] };
  }
  const values = suggestions.map((s) => `${text.slice(0, s.from)}${s.cursor === undefined ? s.insert : s.insert.slice(0, s.cursor)}`);
  return { space: false, values: [...new Set(values)] };
}

/** The number of targets of a matrix call so far (`matrix a.com b.com`, `matrix a.com,b.com`). */
function matrixTargets(args: readonly string[]): number | undefined {
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i]!.startsWith('--')) {
      if (!args[i]!.includes('=') && args[i] !== '--all' && args[i] !== '--yes') i++;
    } else if (args[i] !== '-y') positionals.push(...dequoted(args[i]!).split(',').filter((s) => s.trim() !== ''));
  }
  return positionals.length > 0 ? positionals.length : undefined;
}

/** Paths that start with the word: directories end in `/` (and take no space); hidden ones only for a `.`. */
function fileCandidates(word: string): Candidates {
  const text = unquoted(word);
  const slash = text.lastIndexOf('/');
  const dir = slash === -1 ? '' : text.slice(0, slash + 1);
  const base = text.slice(slash + 1);
  let entries: string[];
  try {
    entries = readdirSync(dir === '' ? '.' : dir);
  } catch {
    return none;
  }
  const values = entries
    .filter((name) => name.startsWith(base) && (base.startsWith('.') || !name.startsWith('.')))
    .sort()
    .map((name) => {
      let directory = false;
      try {
        directory = statSync(join(dir === '' ? '.' : dir, name)).isDirectory();
      } catch {
        // A broken link is offered as a file.
      }
      return `${dir}${name}${directory ? '/' : ''}`;
    });
  return { space: !(values.length === 1 && values[0]!.endsWith('/')), values };
}

/**
 * The `completion` command: prints a shell's script, or (hidden, for the scripts) the candidates
 * for a command line. `commands` gives every command (the entry point's list, which includes this one).
 *
 * @internal
 */
export function completionCommand(commands: () => readonly Command[]): Command {
  return {
    name: 'completion',
    summary: 'Print a shell completion script (bash, zsh or fish)',
    help: HELP,
    options: { help: { type: 'boolean', short: 'h' } },
    async run(args, io) {
      if (args[0] === '--complete') {
        // The words are taken as they are: they are the user's command line, options included.
        const words = args.slice(args[1] === '--' ? 2 : 1);
        const { space, values } = candidatesFor(commands(), words);
        io.stdout.write(`${space ? 'space' : 'nospace'}\n${values.map((value) => `${value}\n`).join('')}`);
        return EXIT.ok;
      }
      if (args.includes('--help') || args.includes('-h')) {
        io.stdout.write(HELP);
        return EXIT.ok;
      }
      const unknown = args.find((arg) => arg.startsWith('-'));
      if (unknown !== undefined) throw new UsageError(`unknown option ${unknown}.`);
      if (args.length !== 1) throw new UsageError(args.length === 0 ? `Name the shell: ${SHELLS.join(', ')}.` : `Expected one shell, got ${args.length} arguments.`);
      const shell = args[0]!;
      if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`No completion for ${JSON.stringify(shell)}; the shells are ${SHELLS.join(', ')}.`);
      io.stdout.write(completionScript(shell as Shell));
      return EXIT.ok;
    },
  };
}
