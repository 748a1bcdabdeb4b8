/**
 * The import graph of `src/`, read from the source text with TypeScript's own pre-processor
 * (static imports, `export ... from`, `import type` and `import()` alike), and the rules it must
 * keep (docs/architecture.md): imports run down the layers, the command line reaches the server
 * through its public entry only, the stores do not reach up into the server, and no circle.
 *
 * Kept apart from the test so that the test can also run the rules on a planted graph.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** A file's imports of other files of `src/`, by path relative to the root (`src/cli/main.ts`). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The layers, lowest first: a module may import from its own folder and from folders of a lower
 * layer, never from its own layer's other folders or from above. Written here by hand from the
 * issue that set them (issue 23) and docs/architecture.md, not read from the code.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['shared', 'vendor'],
  ['peers.ts'],
  ['catalogue'],
  ['errors'],
  ['ast'],
  ['validate', 'print', 'evaluate'],
  ['syntax', 'sql'],
  ['filter', 'builder', 'complete', 'kysely', 'testing', 'client'],
  ['playground', 'index.ts'],
  ['explore'],
  ['server'],
  ['mcp', 'test-service'],
  ['cli'],
];

/** The only module of the server the command line may import: its public entry. */
export const SERVER_ENTRY = 'src/server/index.ts';

/** The server's modules below its stores, which the stores may use (time, targets, history, optional packages). */
export const SERVER_LEAVES: readonly string[] = ['src/server/clock.ts', 'src/server/target.ts', 'src/server/history.ts', 'src/server/deps.ts'];

/** Every `.ts` file under `dir`, as paths relative to `root` with `/`. */
function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Reads the graph of `src/` under `root`. */
export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root, 'src')) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = join(dirname(file), fileName).split(sep).join('/').replace(/\.js$/, '');
      const found = [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(join(root, candidate)));
      if (found === undefined) throw new Error(`${file}: cannot resolve ${fileName}`);
      targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The part of `src/` a file belongs to: its first folder, or its own name for a file at the top. */
export const partOf = (file: string): string => file.split('/')[1]!;

const layerOf = (part: string): number => LAYERS.findIndex((layer) => layer.includes(part));

/** Every import that breaks a layer rule, as `from -> to: why`. */
export function backArrows(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const fromPart = partOf(from);
    for (const to of targets) {
      const toPart = partOf(to);
      const why = ruleBroken(from, fromPart, to, toPart);
      if (why !== undefined) found.push(`${from} -> ${to}: ${why}`);
    }
  }
  return found;
}

function ruleBroken(from: string, fromPart: string, to: string, toPart: string): string | undefined {
  if (layerOf(fromPart) === -1) return `${fromPart} is in no layer (add it to LAYERS and docs/architecture.md)`;
  if (layerOf(toPart) === -1) return `${toPart} is in no layer (add it to LAYERS and docs/architecture.md)`;
  if (fromPart === toPart) {
    const inStore = (file: string) => file.startsWith(STORE);
    if (inStore(from) && !inStore(to) && !SERVER_LEAVES.includes(to)) return 'a store reaches up into the server';
    return storeRuleBroken(from, to);
  }
  if (layerOf(toPart) > layerOf(fromPart)) return `${fromPart} imports ${toPart}, a layer above it`;
  if (layerOf(toPart) === layerOf(fromPart)) return `${fromPart} imports ${toPart}, another folder of its own layer`;
  if (toPart === 'server' && to !== SERVER_ENTRY) return `only ${SERVER_ENTRY} may be imported from outside the server`;
  return undefined;
}

const STORE = 'src/server/store/';

/** The files of the store the routes may import: the store's and the ledger's interfaces. */
export const ROUTES_SEE: readonly string[] = [`${STORE}store.ts`, `${STORE}ledger.ts`];

/**
 * The store's own rules (issue 49, docs/architecture.md "The store"), written by hand: the routes see
 * only the store's and the ledger's interfaces; what every engine shares (reads, loads, memory,
 * cache, the store's assembly) knows no engine; an engine knows no other engine, but the embedded
 * one (rows in one, columns in another); no engine keeps a cache of its own (the read-cache is
 * the store's); `memory/` holds no SQL.
 */
function storeRuleBroken(from: string, to: string): string | undefined {
  if (from.startsWith('src/server/routes/') && to.startsWith(STORE) && !ROUTES_SEE.includes(to)) return `routes see only ${ROUTES_SEE.join(' and ')} of the store`;
  if (!from.startsWith(STORE) || !to.startsWith(STORE)) return undefined;
  const [fromPart, fromEngine] = from.slice(STORE.length).split('/');
  const [toPart, toEngine] = to.slice(STORE.length).split('/');
  if (toPart === 'engines' && fromPart !== 'engines' && fromPart !== 'open.ts') return `${fromPart} is shared by every engine and imports an engine`;
  if (fromPart === 'engines' && toPart === 'engines' && to.endsWith('.ts') && fromEngine !== toEngine && toEngine!.includes('.') === false && fromEngine !== 'embedded') {
    return `only the embedded engine may use another engine (${fromEngine} imports ${toEngine})`;
  }
  if (fromPart === 'engines' && toPart === 'cache') return 'an engine keeps no cache of its own: the read-cache is the store\'s (create-store.ts)';
  if (fromPart === 'memory' && (toPart === 'fragment.ts' || toPart === 'connection.ts' || toPart === 'reads' || toPart === 'loads')) return 'memory/ holds no SQL';
  return undefined;
}

/** The import circles (strongly connected sets of more than one file, or a file importing itself), each sorted. */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
