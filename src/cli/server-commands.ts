/**
 * The server's commands (`serve`, `seed`), registered by the CLI entry point. Filled in with the
 * reference server.
 *
 * @module
 * @internal
 */
import type { Command } from './command.js';

/** The server's commands. */
export const serverCommands: readonly Command[] = [];
