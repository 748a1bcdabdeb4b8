/**
 * Command-line parsing on top of `node:util` `parseArgs`: one place that turns its exceptions into
 * {@link UsageError}, so every command reports bad usage the same way (exit code 2).
 *
 * @module
 * @internal
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorBrand } from '../shared/brand.js';
import { suggest } from '../shared/suggest.js';

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
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new UsageError(usageMessage(error, Object.keys(options)));
  }
}

/**
 * Our own words for `parseArgs`'s errors (which carry a code such as ERR_PARSE_ARGS_UNKNOWN_OPTION):
 * `unknown option --limt; did you mean --limit?`, `--limit needs a value.`, `--yes takes no value.`
 */
function usageMessage(error: unknown, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return unknownOptionMessage(quoted, known);
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) return `unexpected argument ${JSON.stringify(quoted)}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const name = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
    if (message.endsWith('argument missing')) return `${name} needs a value.`;
    if (message.includes('does not take an argument')) return `${name} takes no value.`;
  }
  return message;
}

/**
 * The message for an unknown option, with the closest known long option when one is close:
 * `unknown option --limt; did you mean --limit?`. Shared by every command's option parser.
 *
 * @internal
 */
export function unknownOptionMessage(option: string, known: readonly string[]): string {
  const name = option.replace(/=[^]*$/, '');
  const hint = name.startsWith('--') && name.length > 2 ? suggest(name.slice(2), known) : undefined;
  return `unknown option ${name}${hint === undefined ? '.' : `; did you mean --${hint}?`}`;
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
