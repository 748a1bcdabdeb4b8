/**
 * Colour for people, never for programs: whether a stream gets ANSI styles, decided once per
 * stream from the environment the command was given, and a `paint` that styles text only then.
 *
 * The decision is ours rather than `node:util`'s: `styleText` decides from `process.env` and
 * `process.stdout` (Node 20 checks the stream only for a single format, and only real Node streams
 * pass its check), while a command gets its streams and environment in {@link CliIo}, so tests and
 * embedders can hand it theirs. `styleText` still writes the escape codes, with its own check off.
 *
 * The rules, in order (the same order Node's own `shouldColorize` follows):
 * 1. `FORCE_COLOR` set: colour, unless it is `0` or `false` (`FORCE_COLOR=1 cmd | less -R`).
 * 2. `NO_COLOR` set and not empty: no colour (https://no-color.org).
 * 3. Otherwise colour only on a terminal (`isTTY`) whose `TERM` is not `dumb`.
 *
 * @module
 * @internal
 */
import { styleText } from 'node:util';
import { formatUnits } from '../client/units.js';
import type { CliIo, TextSink } from './command.js';

/** The styles the CLI uses: few on purpose (headers, errors, warnings, phase names). @internal */
export type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'cyan';

/** Styles text for one stream: the text itself when that stream gets no colour. @internal */
export type Paint = (style: Style | readonly Style[], text: string) => string;

/**
 * Whether `stream` gets colour under `env` (see the module's rules).
 *
 * @example
 * ```ts
 * useColour(process.stderr, process.env); // true in a terminal, false with NO_COLOR=1
 * ```
 * @internal
 */
export function useColour(stream: Pick<TextSink, 'isTTY'>, env: CliIo['env']): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** Text as it is: the paint of a stream without colour. */
const plain: Paint = (_style, text) => text;

/**
 * The paint for `stream`: ANSI styles when {@link useColour} says so, else the text unchanged.
 *
 * @example
 * ```ts
 * const paint = painter(io.stderr, io.env);
 * io.stderr.write(`${paint('red', 'backlink-query links:')} ...`);
 * ```
 * @internal
 */
export function painter(stream: Pick<TextSink, 'isTTY'>, env: CliIo['env']): Paint {
  if (!useColour(stream, env)) return plain;
  // validateStream off: the decision above is the one that counts (and Node 20 would check process.stdout).
  return (style, text) => (text === '' ? text : styleText(style as Parameters<typeof styleText>[0], text, { validateStream: false }));
}

/**
 * A count with its noun, in the plural unless the count is exactly one, written as the interface
 * writes numbers for people (thousands separated by commas): `1 row`, `0 rows`, `12,500 units`.
 *
 * @example
 * ```ts
 * counted(1, 'row'); // '1 row'
 * counted(45, 'unit'); // '45 units'
 * ```
 * @internal
 */
export function counted(count: number, noun: string): string {
  return `${formatUnits(count)} ${count === 1 ? noun : `${noun}s`}`;
}
