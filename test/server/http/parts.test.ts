/**
 * Small parts with their own rules: key configuration, the key ring, target splitting, CSV
 * cells, the progress bar and the commands' option parsing.
 */
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError } from '../../../src/cli/args.js';
import { toCsv } from '../../../src/catalogue/csv.js';
import { loadServerDeps } from '../../../src/server/deps.js';
import { parseKeys } from '../../../src/server/keys-config.js';
import { KeyRing } from '../../../src/server/accounts/key-ring.js';
import { hashKey } from '../../../src/server/store/ledger.js';
import { toTarget } from '../../../src/server/target.js';

describe('key configuration', () => {
  it('reads JSON and the short form', () => {
    expect(parseKeys('[{"id":"a","key":"aaaaaaaa","units":5,"rate":2}]')).toEqual([{ id: 'a', key: 'aaaaaaaa', units: 5, rate: 2 }]);
    expect(parseKeys('{"keys":[{"id":"a","key":"aaaaaaaa"}]}')).toEqual([{ id: 'a', key: 'aaaaaaaa', units: 10_000_000 }]);
    expect(parseKeys('a:aaaaaaaa:7, b:bbbbbbbb')).toEqual([{ id: 'a', key: 'aaaaaaaa', units: 7 }, { id: 'b', key: 'bbbbbbbb', units: 10_000_000 }]);
  });
  it.each([
    ['a:short', 'invalid_key', 1],
    ['a:aaaaaaaa:-1', 'invalid_units', 1],
    ['a:aaaaaaaa:x', 'invalid_units', 1],
    ['b:bbbbbbbb, :aaaaaaaa', 'invalid_id', 2],
    ['{"keys":1}', 'not_a_list', undefined],
  ])('rejects %s as %s (key %s)', (text, code, key) => {
    expect(() => parseKeys(text)).toThrow(expect.objectContaining({ name: 'KeyConfigError', code, key }));
  });
  it('the ring finds a key by its exact header only', () => {
    const ring = new KeyRing([{ id: 'one', keyHash: hashKey('first-key-1'), units: 1 }, { id: 'two', keyHash: hashKey('second-key-2'), units: 1 }]);
    expect(ring.authenticate('Apikey second-key-2')).toBe('two');
    expect(ring.authenticate('Apikey first-key-1')).toBe('one');
    expect(ring.authenticate('Apikey first-key-')).toBeUndefined();
    expect(ring.authenticate('Apikey first-key-1 ')).toBeUndefined();
    expect(ring.authenticate('first-key-1')).toBeUndefined();
    expect(ring.authenticate(undefined)).toBeUndefined();
  });
});

describe('targets', () => {
  it.each([
    ['https://User@Blog.Example.CO.UK:8443/a/b/?q=1#frag', 'SUBFOLDER', { host: 'blog.example.co.uk', domain: 'example.co.uk', path: '/a/b/?q=1', folder: '/a/b', effectiveUrl: 'blog.example.co.uk/a/b' }],
    ['example.com.', 'ROOT_DOMAIN', { host: 'example.com', domain: 'example.com', path: '/', folder: '', effectiveUrl: 'example.com' }],
    ['192.0.2.1/x', 'PAGE', { host: '192.0.2.1', domain: '192.0.2.1', path: '/x', folder: '/x', effectiveUrl: '192.0.2.1/x' }],
    ['foo.github.io', 'ROOT_DOMAIN', { host: 'foo.github.io', domain: 'github.io', path: '/', folder: '', effectiveUrl: 'github.io' }],
  ])('%s (%s)', async (url, scope, expected) => {
    const { tldts } = await loadServerDeps();
    expect(toTarget(url, scope as 'PAGE', tldts)).toEqual({ ...expected, scope });
  });
  it('refuses what has no host', async () => {
    const { tldts } = await loadServerDeps();
    for (const url of ['', 'https://', '/path', 'a b.com', 'a..b.com']) expect(toTarget(url, 'PAGE', tldts), url).toBeUndefined();
  });
});

describe('CSV cells', () => {
  it('quotes only what needs it', () => {
    expect(toCsv([{ a: 'plain', b: 'x;y', c: 'say "hi"', d: 'two\r\nlines', e: ['A', 'B'], f: false, g: 0 }], ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(
      'a;b;c;d;e;f;g\r\nplain;"x;y";"say ""hi""";"two\r\nlines";A,B;false;0\r\n',
    );
  });
});

describe('command parts', () => {
  it('parses the server commands\' options with the one option parser', () => {
    const specs = { port: { type: 'string' }, sample: { type: 'boolean' } } as const;
    const parse = (args: string[]) => parseCommandArgs(args, specs, { positionals: false }).values;
    const usage = (args: string[]) => {
      try {
        parseCommandArgs(args, specs, { positionals: false });
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`no usage error for ${args.join(' ')}`);
    };
    expect(parse(['--port', '80', '--sample'])).toEqual({ port: '80', sample: true });
    expect(parse(['--port=81'])).toEqual({ port: '81' });
    expect(usage(['--prot', '1'])).toBe('unknown option --prot; did you mean --port?');
    expect(usage(['--port'])).toBe('--port needs a value.');
    expect(usage(['--sample=1'])).toBe('--sample takes no value.');
    expect(usage(['80'])).toBe('unexpected argument "80".');
  });
});
