/**
 * The esbuild plugin that leaves out of the build the parts of Chevrotain 11 the filter language
 * never runs (issue 26: the client's first filtered call in a browser). Chevrotain is bundled
 * (tsup.config.ts); each module listed in {@link STUBS} is replaced, for the Chevrotain modules
 * that import it, by a module of ours that re-exports what is used from the real one (so the
 * bundler drops the rest of it) and gives, for what is not used, a stand-in that throws an Error
 * naming it (src/vendor/chevrotain-left-out.ts).
 *
 * Why each part is unreachable rests on how src/syntax builds its lexer and parsers:
 * - the lexer and the parsers are built with `skipValidations: true` (Chevrotain's checks of a
 *   grammar or a lexer definition run only when that is false): test/unit/syntax/definition.test.ts
 *   builds both with the validations on, with the real Chevrotain, and expects no error or warning;
 * - every token type with a RegExp pattern has a `start_chars_hint`, and the lexer tracks only
 *   offsets, so the lexer never analyses a RegExp (@chevrotain/regexp-to-ast), which it does only
 *   for a pattern without hint, for line-break tracking or in its validations;
 * - the parsers are EmbeddedActionsParsers with their own error messages: no CST is built, and
 *   Chevrotain's default messages are never asked for.
 *
 * The package's sources and their tests use the real Chevrotain; test/entries/built-filter.test.ts
 * runs the BUILT filter language (dist/) on valid and invalid filters, with error recovery and
 * completion, and compares every result with the sources'. The stubs were checked against one
 * version of Chevrotain, and the build stops on any other: its internals may change in any release.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/** The version of Chevrotain (and its @chevrotain packages) the stubs below were checked against. */
export const CHEVROTAIN_CHECKED = '11.2.0';

const LEFT_OUT = fileURLToPath(new URL('../src/vendor/chevrotain-left-out.ts', import.meta.url));
const TREE_BUILDER = fileURLToPath(new URL('../src/vendor/chevrotain-tree-builder.ts', import.meta.url));

interface Stub {
  /** Names re-exported from the real module. */
  readonly keep?: readonly string[];
  /** Names given a stand-in that throws (a function, or with `object`, an object). */
  readonly leftOut?: readonly string[];
  readonly object?: boolean;
  /** Names given a function that does nothing. */
  readonly noop?: readonly string[];
  /** A module of ours that replaces the real one entirely. */
  readonly replacement?: string;
  /** Why nothing the filter language runs reaches what is left out. */
  readonly why: string;
}

/**
 * The replaced modules, by path below node_modules/. Every name a Chevrotain module imports from
 * one of them must be here (esbuild stops the build on a missing export).
 */
export const STUBS: Readonly<Record<string, Stub>> = {
  '@chevrotain/regexp-to-ast/lib/src/api.js': {
    leftOut: ['RegExpParser', 'BaseRegExpVisitor'],
    why: 'the RegExp parser behind the lexer\'s first-character analysis, its line-break analysis and its validations: every RegExp token type has a start_chars_hint, positions are offsets only, validations are skipped',
  },
  'chevrotain/lib/src/scan/reg_exp_parser.js': {
    leftOut: ['getRegExpAst'],
    // Called by every Lexer constructor, to clear the cache of getRegExpAst, which is never filled here.
    noop: ['clearRegExpParserCache'],
    why: 'parses a RegExp with regexp-to-ast (see above); nothing of the real module can be kept, as it makes a RegExpParser when it is evaluated',
  },
  'chevrotain/lib/src/scan/reg_exp.js': {
    keep: ['failedOptimizationPrefixMsg'],
    leftOut: ['canMatchCharCode', 'getOptimizedStartCodesIndices'],
    why: 'the first characters of a RegExp (a start_chars_hint is used instead) and whether it can match a line break (only for line tracking, or in the validations)',
  },
  'chevrotain/lib/src/scan/lexer.js': {
    keep: ['analyzeTokenTypes', 'charCodeToOptimizedIndex', 'cloneEmptyGroups', 'DEFAULT_MODE', 'LineTerminatorOptimizedTester', 'minOptimizationVal'],
    leftOut: ['performRuntimeChecks', 'performWarningRuntimeChecks', 'validatePatterns'],
    why: 'the lexer definition\'s validations, run only with skipValidations: false',
  },
  'chevrotain/lib/src/parse/grammar/checks.js': {
    leftOut: [
      'validateLookahead',
      'validateGrammar',
      'validateRuleIsOverridden',
      'validateAmbiguousAlternationAlternatives',
      'validateEmptyOrAlternative',
      'validateNoLeftRecursion',
      'validateSomeNonEmptyLookaheadPath',
    ],
    why: 'the grammar\'s validations, run by performSelfAnalysis only with skipValidations: false (and by OVERRIDE_RULE, which the grammar does not use)',
  },
  'chevrotain/lib/src/parse/errors_public.js': {
    leftOut: ['defaultParserErrorProvider', 'defaultGrammarResolverErrorProvider', 'defaultGrammarValidatorErrorProvider'],
    object: true,
    why: 'default error messages, asked for only when there is an error to describe: the parsers give their own errorMessageProvider for parse errors; a grammar definition error (a rule defined twice, a reference to no rule, what the validations find) fails test/unit/syntax/definition.test.ts',
  },
  'chevrotain/lib/src/parse/parser/traits/tree_builder.js': {
    replacement: TREE_BUILDER,
    why: 'CST building and visitors: EmbeddedActionsParsers build no CST (src/vendor/chevrotain-tree-builder.ts keeps what such a parser runs)',
  },
};

/**
 * The stand-in modules are generated, in esbuild's namespace `virtual`: the source maps name each
 * `virtual:chevrotain-stub/<the module it stands in for>`, which tools read as no file (Vite's
 * loader of source maps, for one).
 */
const NAMESPACE = 'virtual';
const PREFIX = 'chevrotain-stub/';

/** The module's text that stands in for `below` (a key of {@link STUBS}), the real one being at `real`. */
function stubModule(below: string, real: string): string {
  const stub = STUBS[below]!;
  if (stub.replacement) return `export * from ${JSON.stringify(stub.replacement)};\n`;
  const lines = [];
  if (stub.keep && stub.keep.length > 0) lines.push(`export { ${stub.keep.join(', ')} } from ${JSON.stringify(real)};`);
  if (stub.leftOut && stub.leftOut.length > 0) {
    const make = stub.object ? 'leftOutObject' : 'leftOut';
    lines.push(`import { ${make} } from ${JSON.stringify(LEFT_OUT)};`);
    for (const name of stub.leftOut) lines.push(`export const ${name} = /* @__PURE__ */ ${make}(${JSON.stringify(`${name} (${below})`)});`);
  }
  for (const name of stub.noop ?? []) lines.push(`export function ${name}() {}`);
  return `${lines.join('\n')}\n`;
}

/** The method names of the class `name` in a compiled Chevrotain module (`  name(args) {` at class level). */
export function classMethods(source: string, name: string): string[] {
  const body = source.slice(source.indexOf(`export class ${name} {`));
  const end = body.search(/\n}\n/);
  return [...body.slice(0, end).matchAll(/^ {4}([A-Za-z_$][\w$]*)\(.*\) \{$/gm)].map((match) => match[1]!).filter((method) => method !== 'constructor');
}

/** Stops the build unless the installed Chevrotain is the one the stubs were checked against, and the TreeBuilder trait has no method its stand-in lacks. */
function checkChevrotain(): void {
  const require = createRequire(import.meta.url);
  // Neither package exports its package.json (nor a `require` condition, for @chevrotain/*): the
  // directories are found as Node finds them, nested in chevrotain's or beside it.
  const main = require.resolve('chevrotain');
  const chevrotainDir = main.slice(0, main.lastIndexOf('node_modules/chevrotain/') + 'node_modules/chevrotain'.length);
  const packageDir = (name: string) =>
    name === 'chevrotain' ? chevrotainDir : [join(chevrotainDir, 'node_modules', name), join(dirname(chevrotainDir), name)].find((dir) => existsSync(dir))!;
  for (const name of ['chevrotain', '@chevrotain/regexp-to-ast']) {
    const { version } = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
    if (version !== CHEVROTAIN_CHECKED) {
      throw new Error(
        `chevrotain-stubs: ${name} is ${version}, the stubs of scripts/chevrotain-stubs.ts were checked against ${CHEVROTAIN_CHECKED}: check each again (is it still unreachable, are its exports the same?) and update CHEVROTAIN_CHECKED`,
      );
    }
  }
  const real = classMethods(readFileSync(join(packageDir('chevrotain'), 'lib/src/parse/parser/traits/tree_builder.js'), 'utf8'), 'TreeBuilder');
  // Our TypeScript class's methods: the names at its two-space indent followed by `(`.
  const ours = [...readFileSync(TREE_BUILDER, 'utf8').matchAll(/^ {2}([A-Za-z_$][\w$]*)\(/gm)].map((match) => match[1]!);
  const missing = real.filter((method) => !ours.includes(method));
  if (real.length === 0 || missing.length > 0) throw new Error(`chevrotain-stubs: src/vendor/chevrotain-tree-builder.ts lacks TreeBuilder's ${missing.join(', ') || '(no method found)'}`);
}

/** Resolves the Chevrotain modules listed in {@link STUBS}, imported by a Chevrotain module, to their stand-ins. */
export const chevrotainStubs: Plugin = {
  name: 'chevrotain-stubs',
  setup(build) {
    checkChevrotain();
    // Marks this plugin's own call of esbuild's resolver, which would otherwise come back here.
    const RESOLVING = Symbol('chevrotain-stubs: resolving');
    const inChevrotain = /[\\/]node_modules[\\/](chevrotain|@chevrotain[\\/][^\\/]+)[\\/]/;
    build.onResolve({ filter: /^(\.\.?\/|@chevrotain\/)/ }, async (args) => {
      if (args.namespace !== 'file' || !inChevrotain.test(args.importer) || args.pluginData === RESOLVING) return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: RESOLVING });
      if (resolved.errors.length > 0) return undefined;
      const below = resolved.path.split(/[\\/]node_modules[\\/]/).pop()!.replaceAll('\\', '/');
      return below in STUBS ? { path: `${PREFIX}${below}`, namespace: NAMESPACE, pluginData: resolved.path } : undefined;
    });
    build.onLoad({ filter: new RegExp(`^${PREFIX}`), namespace: NAMESPACE }, (args) => ({
      contents: stubModule(args.path.slice(PREFIX.length), args.pluginData as string),
      loader: 'js',
      resolveDir: dirname(args.pluginData as string),
    }));
  },
};
