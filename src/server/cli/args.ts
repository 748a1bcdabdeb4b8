/**
 * A small option parser for the server's commands: `--name value`, `--name=value` and boolean
 * flags, with the option table as data. Unknown options are usage errors.
 *
 * @module
 * @internal
 */
import { unknownOptionMessage } from '../../cli/args.js';

/** An option: takes a value, or is a flag. @internal */
export interface OptionSpec {
  readonly value: boolean;
}

/** Parsed options, or the usage error. @internal */
export type ParsedArgs = { readonly ok: true; readonly options: Readonly<Record<string, string | true>> } | { readonly ok: false; readonly error: string };

/** Parses `args` against `specs`. @internal */
export function parseArgs(args: readonly string[], specs: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  const options: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) return { ok: false, error: `Unexpected argument ${arg}.` };
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs[name];
    if (!spec) return { ok: false, error: capitalize(unknownOptionMessage(`--${name}`, Object.keys(specs))) };
    if (!spec.value) {
      if (eq !== -1) return { ok: false, error: `--${name} takes no value.` };
      options[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) return { ok: false, error: `--${name} needs a value.` };
    options[name] = value;
  }
  return { ok: true, options };
}

const capitalize = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** A non-negative integer option, or an error message. @internal */
export function integerOption(options: Readonly<Record<string, string | true>>, name: string, fallback: number, min = 0): number | string {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    return `--${name} must be an integer of at least ${min}.`;
  }
  return Number(raw);
}

/** A date option (ISO 8601), or an error message. @internal */
export function dateOption(options: Readonly<Record<string, string | true>>, name: string): Date | undefined | string {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const date = typeof raw === 'string' ? new Date(/[zZ]|[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`) : new Date(NaN);
  return Number.isNaN(date.getTime()) ? `--${name} must be a date such as 2026-06-15 or 2026-06-15T12:00:00.` : date;
}
