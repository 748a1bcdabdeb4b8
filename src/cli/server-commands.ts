/**
 * The server's commands (`serve`, `seed`, `import`), registered by the CLI entry point. They load the
 * server's optional dependencies (fastify, better-sqlite3, tldts) only when run, and say what to
 * install when one is missing.
 *
 * @module
 * @internal
 */
import { importCommand } from './server/import.js';
import { seedCommand } from './server/seed.js';
import { serveCommand } from './server/serve.js';
import type { Command } from './command.js';

/** The server's commands. */
export const serverCommands: readonly Command[] = [serveCommand, seedCommand, importCommand];
