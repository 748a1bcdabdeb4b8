/**
 * The subqueries bench/server/clickhouse-reads.ts runs alone, because ClickHouse 18.16's
 * `read_rows` leaves out what they read: local `IN (SELECT ...)` and scalar `(SELECT ...)`, also in
 * the text a shard logs for its part of a distributed query (`IN ((SELECT ...) AS _subquery3)`);
 * not `GLOBAL IN`, `JOIN` or `FROM` subqueries, which the server counts (seen on the test cluster:
 * a query whose only read is an IN subquery over 100,000 rows logs 8,192 rows, one with a JOIN
 * subquery over them 108,192). Expected lists written by hand.
 */
import { describe, expect, it } from 'vitest';
import { uncountedSubqueries } from '../../../bench/server/clickhouse-reads.js';

describe('uncountedSubqueries', () => {
  it.each([
    ['a local IN subquery', 'SELECT count() FROM t WHERE k IN (SELECT k FROM t WHERE v < 500)', ['SELECT k FROM t WHERE v < 500']],
    ['a shard\'s part, the subquery aliased', 'SELECT sum(v) FROM db.t  WHERE k IN ((SELECT k FROM db.t  WHERE v < 500) AS _subquery3)', ['SELECT k FROM db.t  WHERE v < 500']],
    ['GLOBAL IN (counted)', 'SELECT sum(v) FROM d WHERE k GLOBAL IN (SELECT k FROM d WHERE v < 500)', []],
    ['GLOBAL NOT IN, aliased (counted)', 'SELECT sum(v) FROM d WHERE k GLOBAL NOT IN ((SELECT k FROM d) AS x)', []],
    ['an IN subquery inside a JOIN subquery', 'SELECT count() FROM t AS a ANY LEFT JOIN (SELECT k, v AS w FROM t WHERE v IN (SELECT 1)) AS b USING k', ['SELECT 1']],
    [
      'a scalar subquery, quotes holding parentheses, NOT IN with one inside (found when it runs alone)',
      "SELECT (SELECT count() FROM t WHERE s = ')(SELECT' ) AS c, x NOT IN (SELECT y FROM z WHERE q IN (SELECT 2))",
      ["SELECT count() FROM t WHERE s = ')(SELECT'", 'SELECT y FROM z WHERE q IN (SELECT 2)'],
    ],
    ['a FROM subquery and a literal list (counted, none)', "SELECT * FROM (SELECT a FROM t WHERE b IN (1, 2)) WHERE c = 'it''s (SELECT 1)'", []],
    ['a scalar subquery as an argument, a quoted name', 'SELECT coalesce((SELECT d.s FROM (SELECT s FROM x) AS d), 0), `we(ird` FROM y', ['SELECT d.s FROM (SELECT s FROM x) AS d']],
    ['the same subquery twice: run once', 'SELECT 1 FROM t WHERE a IN (SELECT 1) AND b IN (SELECT 1)', ['SELECT 1']],
  ])('%s', (_name, text, expected) => {
    expect(uncountedSubqueries(text)).toEqual(expected);
  });
});
