/**
 * Command-line parsing on top of `node:util` `parseArgs`: one place that turns its exceptions into
 * {@link UsageError}, so every command reports bad usage the same way (exit code 2).
 *
 * @module
 * @internal
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorBrand } from '../shared/brand.js';
import { didYouMean, suggest } from '../shared/suggest.js';

/** Bad usage of a command: an unknown option, a missing argument, a value that is not a number. @internal */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message);
    USAGE.mark(this);
  }
}

const USAGE = /* @__PURE__ */ errorBrand<UsageError>('UsageError');

/** Whether `value` is a {@link UsageError}. @internal */
export const isUsageError = USAGE.is;

/** The options table `parseArgs` takes. @internal */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** Parsed arguments: option values by name, and the positionals. @internal */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Parses `args` strictly against `options`. A lone `-` is a positional (it means stdin);
 * `positionals: false` makes any positional a usage error.
 *
 * @internal
 */
export function parseCommandArgs(args: readonly string[], options: OptionTable, { positionals: allowPositionals = true } = {}): ParsedArgs {
  const known = Object.keys(options);
  const singleDash = singleDashLong(args, options);
  if (singleDash !== undefined) throw new UsageError(unknownOptionMessage(singleDash, known));
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new UsageError(usageMessage(error, known, args));
  }
}

/**
 * A long option written with one dash (`-limit 5`, as some other tools take them), which
 * `parseArgs` would read as the short options `-l -i -m ...` or as `-f ormat`: the first such word
 * that names a long option of the table, before a `--` and not the value of an option.
 */
function singleDashLong(args: readonly string[], options: OptionTable): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    const long = /^--([\w-]+)$/.exec(arg);
    if (long && options[long[1]!]?.type === 'string') i++;
    const single = /^-([a-z][\w-]+)(=|$)/i.exec(arg);
    if (single && Object.hasOwn(options, single[1]!)) return arg;
  }
  return undefined;
}

/**
 * Our own words for `parseArgs`'s errors (which carry a code such as ERR_PARSE_ARGS_UNKNOWN_OPTION):
 * `unknown option --limt; did you mean --limit?`, `--limit needs a value.`, `--yes takes no value.`
 */
function usageMessage(error: unknown, known: readonly string[], args: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    // `-limt 5` fails at `-l`: the word as typed is the unknown option, closest to --limit.
    const word = /^-[^-]$/.test(quoted) ? args.find((arg) => arg.startsWith(quoted) && /^-[a-z][\w-]+/i.test(arg)) : undefined;
    return unknownOptionMessage(word ?? quoted, known);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) return `unexpected argument ${JSON.stringify(quoted)}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const name = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
    if (message.endsWith('argument missing')) return `${name} needs a value.`;
    // `--filter -x`: a value that starts with a dash is taken for an option unless joined with `=`.
    if (message.includes('argument is ambiguous')) return `${name} needs a value; one that starts with "-" is written ${name}=<value>.`;
    if (message.includes('does not take an argument')) return `${name} takes no value.`;
  }
  return message;
}

/**
 * The message for an unknown option, with the closest known long option when one is close:
 * `unknown option --limt; did you mean --limit?`; a long option written with one dash gets its two
 * (`unknown option -limit; did you mean --limit?`). Shared by every command's option parser.
 *
 * @internal
 */
export function unknownOptionMessage(option: string, known: readonly string[]): string {
  const name = option.replace(/=[^]*$/, '');
  const word = /^--?([^-][^]*)$/.exec(name)?.[1];
  const hint = word !== undefined && (name.startsWith('--') || word.length > 1) ? suggest(word, known) : undefined;
  return `unknown option ${name}${didYouMean(hint === undefined ? undefined : `--${hint}`)}`;
}

/**
 * Reads an option as a whole number at least `min`; `undefined` when absent.
 *
 * @internal
 */
export function integerOption(values: ParsedArgs['values'], name: string, min: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(raw)}.`);
  }
  return Number(raw);
}

/** Reads a string option; `undefined` when absent. @internal */
export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * Reads a date option (ISO 8601: `2026-06-15`, `2026-06-15T12:00:00`, UTC unless it names a
 * zone); `undefined` when absent.
 *
 * @internal
 */
export function dateOption(values: ParsedArgs['values'], name: string): Date | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const date = typeof raw === 'string' ? new Date(/[zZ]|[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name} must be a date such as 2026-06-15 or 2026-06-15T12:00:00, not ${JSON.stringify(raw)}.`);
  return date;
}
