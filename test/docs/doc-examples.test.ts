/** How examples.test.ts reads the docs' examples (docs/examples.md): markers, transcripts, shown output. */
import { describe, expect, it } from 'vitest';
import { examplesOf, linesMatch, moduleSource, runsAppear, shownOutput } from './doc-examples.js';

const page = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('examplesOf', () => {
  it('takes only blocks whose fence follows a marker directly, with the words of the marker', () => {
    const found = examplesOf('p.md', page(
      '```sh', 'not marked', '```',
      '<!-- example -->', '```sh', 'echo one', '```',
      '<!-- example exit=2 -->', '```', '$ false \\', '  --flag', 'printed', '', '$ true', '```',
      '<!-- example id=a -->', '```ts', 'const a = 1;', '```',
      '<!-- example after=a file=x.mjs -->', '```js', 'console.log(a);', '```',
    ));
    expect(found.map((e) => [e.line, e.kind, e.options])).toEqual([
      [5, 'shell', { exit: 0 }],
      [9, 'transcript', { exit: 2 }],
      [17, 'module', { exit: 0, id: 'a' }],
      [21, 'module', { exit: 0, after: 'a', file: 'x.mjs' }],
    ]);
    expect(found[0]!.code).toBe('echo one\n');
    expect(found[1]!.kind === 'transcript' && found[1]!.steps).toEqual([
      { command: 'false \\\n  --flag', output: ['printed'] },
      { command: 'true', output: [] },
    ]);
    expect(moduleSource(found[3]!, found)).toBe('const a = 1;\n\nconsole.log(a);\n');
  });

  it('skips a marker shown inside another block, and keeps an indented block', () => {
    const found = examplesOf('p.md', page('````md', '<!-- example -->', '```sh', 'echo shown', '```', '````', '- item', '  <!-- example -->', '  ```sh', '  echo indented', '  ```'));
    expect(found.map((e) => e.code)).toEqual(['echo indented\n']);
  });

  it('refuses a marker it cannot follow', () => {
    expect(() => examplesOf('p.md', page('<!-- example exits=1 -->', '```sh', 'x', '```'))).toThrow(/p\.md:1: unknown word "exits=1"/);
    expect(() => examplesOf('p.md', page('<!-- example -->', '', '```sh', 'x', '```'))).toThrow(/followed directly by a fenced block/);
    expect(() => examplesOf('p.md', page('<!-- example -->', '```python', 'x', '```'))).toThrow(/no way to run/);
    expect(() => examplesOf('p.md', page('<!-- example after=b -->', '```ts', 'x', '```'))).toThrow(/after=b names no earlier example/);
    expect(() => examplesOf('p.md', page('<!-- example -->', '```sh', 'x'))).toThrow(/never ends/);
  });
});

describe('shown output', () => {
  it('is the comment after console.log on its line, or the comment lines below it', () => {
    const code = page(
      "console.log(f('a')); // a = 'x'",
      'thing(); // not output',
      'if (ok) console.log(1);',
      'else console.log(2);',
      '// 1:1 first',
      '//   second',
      'const url = "http://x"; console.log(url)',
    );
    expect(shownOutput(code)).toEqual([["a = 'x'"], ['1:1 first', '  second']]);
  });

  it('matches whole lines, … standing for any text, runs in order', () => {
    expect(linesMatch(['request … done'], ['request 3fbc-11 done'])).toBe(true);
    expect(linesMatch(['request … done'], ['request 3fbc-11 done!'])).toBe(false);
    expect(linesMatch(['a'], ['a', 'b'])).toBe(false);
    expect(runsAppear([['b'], ['d', 'e']], ['a', 'b', 'c', 'd', 'e'])).toBe(true);
    expect(runsAppear([['d'], ['b']], ['a', 'b', 'c', 'd'])).toBe(false);
  });
});
