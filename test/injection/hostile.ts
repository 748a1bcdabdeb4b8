/**
 * Hostile inputs for the injection suite: identifiers a caller might map fields to, and literals a
 * user might type, each built to end a quote, open a comment, start a second statement, or shift
 * a placeholder, in the syntax of some engine.
 *
 * @internal
 * @module
 */
import type { EngineName } from '../helpers/engines.js';

/** Column (and table) names with every quoting character and comment marker of the five dialects. @internal */
export const HOSTILE_IDENTIFIERS = [
  'a"b', '"', '""', 'a""b', '"x" OR 1=1 --', 'a`b', '`', '`x` OR 1=1 --', '[a]', 'a]b', ']',
  'a--b', '-- x', 'a/*b', '*/', '/* x */', 'a;b', '; DROP TABLE canary; --', "a'b", "'", "' OR '1'='1",
  'a\\b', '\\', '\\"', 'a?b', '?', '$1', '$$', ':p', '@p', '%s', 'a b', 'select', 'where', 'order',
  'ä', 'Ω', 'x\ty', 'x\ny', '😀 emoji',
] as const;

/**
 * Names an engine itself cannot hold, whatever the quoting: MariaDB refuses characters outside
 * the BMP and trailing spaces in identifiers (its CREATE TABLE fails with "Invalid utf8mb4
 * character string" / "Incorrect column name").
 *
 * @internal
 */
export const ENGINE_CANNOT_NAME: Readonly<Record<EngineName, (name: string) => boolean>> = {
  sqlite: () => false,
  postgres: () => false,
  mysql: (name) => /[\u{10000}-\u{10ffff}]/u.test(name) || name.endsWith(' '),
  duckdb: () => false,
  clickhouse: () => false,
};

/** A 100 KB text with a quote and a comment marker in the middle. @internal */
export const LONG_TEXT = `${'x'.repeat(50_000)}'; DROP TABLE canary; --${'y'.repeat(102_400 - 50_000)}`;

/** Literals that try to leave the string, the statement or the LIKE pattern. @internal */
export const HOSTILE_LITERALS = [
  "'", "''", "' OR '1'='1", "' OR 1=1 --", "'; DROP TABLE canary; --", "x'); DROP TABLE canary; --",
  '"', '" OR "1"="1', '`', '\\', "\\'", "\\'; DROP TABLE canary; --", '\\\\', '\\%', '\\_',
  '--', '/*', '*/', '/* x */ OR 1=1', ';', '; SELECT 1', '?', '$1', ':p', '%', '_', '%%', '%_%', 'a%', '_a',
  '%\' OR \'%\'=\'', '\u2019 OR 1=1', 'Ä', '😀', '\u0000', "a\u0000' OR '1'='1", '%\u0000%',
  LONG_TEXT,
] as const;
