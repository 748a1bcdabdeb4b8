/**
 * `grammar/diagrams.html` is the page `npm run grammar` generates from the parser now, and it
 * loads nothing from the network.
 */
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildDiagramsPage, DIAGRAMS_PATH } from '../../../scripts/generate-diagrams.js';
import { filterParser } from '../../../src/syntax/parser.js';

const committed = readFileSync(DIAGRAMS_PATH, 'utf8');

describe('grammar/diagrams.html', () => {
  it('is up to date with the parser (run `npm run grammar` after a grammar change)', () => {
    expect(committed).toBe(buildDiagramsPage());
  });

  it('works offline: no external script or style sheet', () => {
    expect(committed).not.toMatch(/<script[^>]+src=/i);
    expect(committed).not.toMatch(/<link[^>]+href=/i);
    expect(committed).toContain('railroad-diagrams.js, inlined from chevrotain');
  });

  it('holds every parser rule', () => {
    const grammar = committed.slice(committed.indexOf('window.serializedGrammar'));
    for (const rule of filterParser.getSerializedGastProductions()) {
      expect(grammar).toContain(`"name": "${(rule as unknown as { name: string }).name}"`);
    }
  });

  it('draws one railroad diagram per parser rule with its own inlined scripts (no browser, no network)', () => {
    const scripts = [...committed.matchAll(/<script>\n([\s\S]*?)\n<\/script>/g)].map((m) => m[1]!);
    const target = { innerHTML: '' };
    // Just enough of a page for Chevrotain's scripts: they draw SVG as text into the target.
    const page: Record<string, unknown> = {
      document: {
        getElementById: () => target,
        getElementsByClassName: () => [],
        getElementsByTagName: () => [],
        querySelectorAll: () => [],
        addEventListener: () => undefined,
      },
    };
    page.window = page;
    vm.createContext(page);
    for (const script of scripts) vm.runInContext(script, page);
    const rules = (filterParser.getSerializedGastProductions() as unknown as { name: string }[]).map((r) => r.name);
    expect(target.innerHTML.match(/<svg class="railroad-diagram"/g)).toHaveLength(rules.length);
    for (const rule of rules) expect(target.innerHTML).toContain(`<h2 class="diagramHeader">${rule}</h2>`);
    for (const label of ['compare_op', 'string', 'number', 'digits', 'name', 'LIKE']) expect(target.innerHTML).toContain(label);
  });
});
