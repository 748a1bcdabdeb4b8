/**
 * Command-line parsing on top of `node:util` `parseArgs`: one place that turns its exceptions into
 * {@link UsageError}, so every command reports bad usage the same way (exit code 2).
 *
 * @module
 * @internal
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad usage of a command: an unknown option, a missing argument, a value that is not a number. @internal */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options table `parseArgs` takes. @internal */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** Parsed arguments: option values by name, and the positionals. @internal */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Parses `args` strictly against `options`. A lone `-` is a positional (it means stdin).
 *
 * @internal
 */
export function parseCommandArgs(args: readonly string[], options: OptionTable): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    // parseArgs errors carry a code such as ERR_PARSE_ARGS_UNKNOWN_OPTION and a readable message.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
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
