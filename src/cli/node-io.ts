/**
 * The real process's streams and environment as a {@link CliIo}, and small stream helpers.
 *
 * @module
 * @internal
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo, TextSink } from './command.js';

/**
 * The process's own streams and environment. A reader that goes away (`| head`, `less` quit)
 * closes stdout: the next write fails with EPIPE, which Node reports as an `error` event that
 * would end the process with a stack trace. That error is the reader's answer, not a failure:
 * it is taken here and remembered, and the commands read it ({@link outputClosed}) to stop (no
 * more pages fetched) and end quietly with status 0.
 *
 * @internal
 */
export function nodeIo(): CliIo {
  if (!process.stdout.listeners('error').includes(quietOnClosedReader)) process.stdout.on('error', quietOnClosedReader);
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** The streams whose reader has gone: a write that failed in the background leaves `writable` true. */
const readerGone = new WeakSet<object>();

/** Takes stdout's error when its reader has gone (and a write after that); any other error stays one. */
function quietOnClosedReader(this: NodeJS.WriteStream, error: NodeJS.ErrnoException): void {
  if (!closedReader(error)) throw error;
  readerGone.add(this);
}

/** Whether a write failed because the reader has gone (EPIPE), or came after that failure. */
const closedReader = (error: NodeJS.ErrnoException): boolean => error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';

/**
 * Resolves once `out` has handed on what it holds (at once when it holds nothing): a large write to
 * a pipe is finished in the background, and its failure (the reader gone) is known only then. Waiting
 * here is also the pipe's pace: rows are not read from the service faster than the reader takes them.
 *
 * @internal
 */
export function flushed(out: TextSink): Promise<void> {
  const stream = out as TextSink & Partial<Pick<NodeJS.WriteStream, 'once' | 'off' | 'writableLength' | 'destroyed'>>;
  if (typeof stream.once !== 'function' || !(stream.writableLength! > 0) || stream.destroyed === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off!('close', done);
      resolve();
    };
    stream.once!('close', done);
    // An empty write's callback comes once everything before it is written, or has failed.
    (stream as NodeJS.WriteStream).write('', (error) => {
      if (error && closedReader(error)) readerGone.add(stream);
      done();
    });
  });
}

/**
 * Whether `out` can take no more text: a stream whose reader has gone (`| head -1` after its
 * line). Sinks without a `writable` flag (a test's buffer) never close.
 *
 * @internal
 */
export function outputClosed(out: TextSink): boolean {
  return out.writable === false || readerGone.has(out);
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
