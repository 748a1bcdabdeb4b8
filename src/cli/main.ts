/**
 * The `backlink-query` command line: finds the command named by the first words of `argv` and
 * runs it. Every command has the {@link Command} shape; this file only dispatches, prints the
 * program's help and version, and turns errors into exit codes ({@link EXIT}).
 *
 * @module
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exitCodeOf, describeError } from './exit-codes.js';
import { EXIT, type CliIo, type Command } from './command.js';
import { completionCommand } from './completion.js';
import { fieldsCommand } from './fields-command.js';
import { filterCheckCommand } from './filter-check.js';
import { mcpCommand } from './mcp-command.js';
import { nodeIo, packageVersion } from './node-io.js';
import { operationCommands } from './operation-command.js';
import { serverCommands } from './server-commands.js';
import { painter } from './style.js';
import { didYouMean, suggest } from '../shared/suggest.js';
import { isUsageError, unknownOptionMessage } from './args.js';

/** Every command, in the order the program's help lists them. @internal */
export function allCommands(): readonly Command[] {
  return [filterCheckCommand, fieldsCommand, ...operationCommands, ...serverCommands, mcpCommand, completionCommand(allCommands)];
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code.
 *
 * @example
 * ```ts
 * import { main } from 'backlink-query/cli';
 * const code = await main(['filter', 'check', 'domain_score > 50', '--operation', 'links']);
 * ```
 */
export async function main(argv: readonly string[], io: CliIo = nodeIo()): Promise<number> {
  const commands = allCommands();
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? findCommand(commands, argv.slice(1)) : undefined;
    // `help linkz`: the same did-you-mean as `linkz`; `help filter` lists the group's commands.
    if (first === 'help' && topic === undefined && argv[1] !== undefined) return unknownCommand(commands, [argv[1], '--help'], io);
    io.stdout.write(topic ? topic.command.help : programHelp(commands));
    return EXIT.ok;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const found = findCommand(commands, argv);
  if (!found) return unknownCommand(commands, argv, io);
  try {
    return await found.command.run(argv.slice(found.words), io);
  } catch (error) {
    // Only the prefix is red: the message may quote the user's filter, which stays as typed.
    const paint = painter(io.stderr, io.env);
    io.stderr.write(`${paint('red', `backlink-query ${found.command.name}:`)} ${found.command.describeError?.(error) ?? describeError(error)}\n`);
    if (isUsageError(error)) io.stderr.write(`Run "backlink-query ${found.command.name} --help" for usage.\n`);
    return exitCodeOf(error);
  }
}

/** The command whose name is the longest run of leading words of `argv`. */
function findCommand(commands: readonly Command[], argv: readonly string[]): { command: Command; words: number } | undefined {
  let best: { command: Command; words: number } | undefined;
  for (const command of commands) {
    const words = command.name.split(' ');
    const matches = words.every((word, i) => argv[i] === word);
    if (matches && (!best || words.length > best.words)) best = { command, words: words.length };
  }
  return best;
}

/** The program's own options (before any command). */
const PROGRAM_OPTIONS = ['help', 'version'];

function unknownCommand(commands: readonly Command[], argv: readonly string[], io: CliIo): number {
  // `backlink-query filter` alone: show the commands of that group.
  const group = commands.filter((c) => c.name.startsWith(`${argv[0]} `));
  if (group.length > 0 && (argv.length === 1 || argv[1] === '--help' || argv[1] === '-h')) {
    io.stdout.write(listCommands(group));
    return argv.length === 1 ? EXIT.usage : EXIT.ok;
  }
  const first = argv[0]!;
  if (first.startsWith('-')) {
    io.stderr.write(`backlink-query: ${unknownOptionMessage(first, PROGRAM_OPTIONS)}\nRun "backlink-query --help" for usage.\n`);
    return EXIT.usage;
  }
  // The command's name only (one word, or two in a group such as `filter check`), never its arguments.
  const name = group.length > 0 && argv[1] !== undefined && !argv[1].startsWith('-') ? `${first} ${argv[1]}` : first;
  const hint = suggest(name, commands.map((c) => c.name));
  if (hint !== undefined) {
    io.stderr.write(`backlink-query: unknown command ${JSON.stringify(name)}${didYouMean(hint)}\nRun "backlink-query --help" for the list of commands.\n`);
  } else {
    io.stderr.write(`backlink-query: unknown command ${JSON.stringify(name)}.\n\n${listCommands(commands)}`);
  }
  return EXIT.usage;
}

function listCommands(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Commands:\n${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}\n`;
}

function programHelp(commands: readonly Command[]): string {
  return `Usage: backlink-query <command> [arguments] [options]

Checks filters and calls the Backlink and Keyword Data Service from the command line.

${listCommands(commands)}
Options:
  -h, --help       Show this help (or "backlink-query <command> --help" for one command).
  -V, --version    Show the version.

Output: a table on a terminal, NDJSON (one JSON record per line) when piped or redirected;
--format table|json|ndjson|csv chooses. Colour only on a terminal.

Environment:
  BACKLINK_QUERY_API_KEY    API key (or --api-key).
  BACKLINK_QUERY_BASE_URL   Base URL of the service (or --base-url).
  NO_COLOR                  No colour, even on a terminal (any value but empty).
  FORCE_COLOR               Colour even when not on a terminal (0 or false: never).

Shell completion: source <(backlink-query completion bash)   (or zsh, fish; see "completion --help")

Exit codes: ${Object.entries(EXIT).map(([name, code]) => `${code} ${name}`).join(', ')}.
`;
}

/** Whether this module is the program being run (`tsx src/cli/main.ts`, `node dist/cli.js`). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (typeof import.meta.url !== 'string' || script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`backlink-query: internal error: ${String(error)}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
