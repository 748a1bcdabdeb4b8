/**
 * The shape every CLI command has, so commands live in their own files and the entry point only
 * dispatches. Commands never touch `process` directly: the streams and environment come in
 * {@link CliIo}, which keeps them testable and lets the tests run the real CLI as a process too.
 *
 * @module
 * @internal
 */

/** A writable text stream (process.stdout, a test buffer, ...). */
export interface TextSink {
  write(text: string): unknown;
  /** Whether the stream is an interactive terminal. */
  readonly isTTY?: boolean;
  /** `false` once the stream takes no more text (a pipe whose reader has gone); absent: always open. */
  readonly writable?: boolean;
}

/** What a command may use of its environment. */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Standard input (for `-` arguments and prompts). */
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
}

import type { OptionTable } from './args.js';

/** One command: `backlink-query <name> ...`. */
export interface Command {
  /** The word after `backlink-query` (`links`, `serve`, ...); subcommands use a space (`filter check`). */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text. */
  readonly help: string;
  /** Its options: the table its parser reads (`parseCommandArgs`), which shell completion offers. */
  readonly options: OptionTable;
  /** Runs the command; resolves to the exit code (0 ok, 1 failure of the input, 2 bad usage). */
  run(args: readonly string[], io: CliIo): Promise<number>;
  /** The command's own description of an error it threw, in its words; `undefined`: the common one. */
  describeError?(error: unknown): string | undefined;
}

/** Exit codes shared by every command. */
export const EXIT = Object.freeze({
  ok: 0,
  /** The input was understood but is invalid, or the service said no. */
  failure: 1,
  /** Bad usage: unknown option, missing argument. */
  usage: 2,
  /** A network or server failure. */
  unavailable: 3,
  /** Refused: over budget, or confirmation needed and stdin is not a terminal. */
  refused: 4,
  /** A bug in backlink-query. */
  internal: 70,
});
