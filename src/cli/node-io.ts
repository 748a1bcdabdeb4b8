/**
 * The real process's streams and environment as a {@link CliIo}, and small stream helpers.
 *
 * @module
 * @internal
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from './command.js';

/** The process's own streams and environment. @internal */
export function nodeIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/**
 * Reads a stream to its end as UTF-8 text, exactly as given (no trimming, newlines kept).
 *
 * @internal
 */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads one line from a stream (for a yes/no prompt); `''` at the end of the stream.
 *
 * @internal
 */
export function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) finish(text.slice(0, end));
    };
    const onEnd = (): void => finish(text);
    const finish = (line: string): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.pause();
      resolve(line.replace(/\r$/, ''));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.resume();
  });
}

/**
 * The package version, read from the nearest `package.json` named backlink-query above this file
 * (works from `src/cli/` under tsx and from the bundled `dist/`).
 *
 * @internal
 */
export function packageVersion(): string {
  // The CJS build has no import.meta.url; the working directory is the best guess there.
  let dir = typeof import.meta.url === 'string' ? dirname(fileURLToPath(import.meta.url)) : process.cwd();
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'backlink-query' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
