import { describe, expect, it } from 'vitest';
import { operators, withDb } from './support.js';

const MiB = 1024 * 1024;

describe('write barriers: a write streams unless a clause of its stretch reads or writes what it writes', () => {
  it('plans a barrier exactly where an answer could change', async () => {
    await withDb(async (db) => {
      const eagers = (text: string): number => operators(db.explain(text)).filter((o) => o === 'Eager').length;
      const table: readonly (readonly [string, number])[] = [
        // Fed by values only: nothing the writes change can reach the rows before them.
        ['UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b MERGE (m:M {k: b % 1000}) SET m.v = a', 0],
        ['UNWIND $rows AS r CREATE (n:X {v: r.v}) RETURN count(*)', 0],
        ['UNWIND range(1, 10) AS x CREATE (n:X {v: x}) RETURN n.v', 0],
        // A later MERGE searches the label the earlier one creates.
        ['UNWIND range(1, 10) AS x MERGE (a:A {k: x}) MERGE (b:A {k: x + 1})', 1],
        // SET writes the key the MERGE searches by.
        ['UNWIND range(1, 10) AS x MERGE (m:M {k: 1}) SET m.k = 2', 1],
        // RETURN reads the key the SET writes; a returned node is read whole.
        ['UNWIND range(1, 10) AS x MERGE (m:M) SET m.v = x RETURN m.v', 1],
        ['UNWIND range(1, 10) AS x CREATE (n:X) RETURN n', 1],
        // A MATCH meets every write on either side; a DELETE meets everything.
        ['MATCH (n:A) SET n.x = 1', 1],
        ['CREATE (n:A) WITH n MATCH (m:B) RETURN count(*)', 1],
        ['MATCH (n) DETACH DELETE n', 1],
        // A LIMIT after a write must not cut the write short.
        ['UNWIND range(1, 10) AS x CREATE (n:X) WITH x LIMIT 2 RETURN x', 1],
        // Reads alone never get one.
        ['MATCH (n:A) WITH n MATCH (n)-->(m) RETURN count(*)', 0],
      ];
      for (const [text, n] of table) expect([text, eagers(text)]).toEqual([text, n]);
    });
  });

  it('a MERGE loop over a hundred and sixty thousand rows holds its ten nodes, not its rows', async () => {
    await withDb(
      async (db) => {
        // Behind a barrier the 160,000 rows of (a, b) would be held at once, far over 2 MiB.
        await db.query('UNWIND range(1, 400) AS a UNWIND range(1, 400) AS b MERGE (m:M {k: b % 10}) SET m.v = a');
        expect((await db.query('MATCH (m:M) RETURN count(m), min(m.v), max(m.v)')).rows).toEqual([[10n, 400n, 400n]]);
      },
      { memory_limit_bytes: 2 * MiB },
    );
  });

  it('MERGE still sees the nodes its earlier rows created, and clauses still see the whole effect of the ones before', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND [1, 1, 2, 2, 1] AS k MERGE (:K {k: k})');
      expect((await db.query('MATCH (n:K) RETURN count(n)')).rows).toEqual([[2n]]);
      // Streamed, the second row's MERGE would miss the node the first row's SET moved to k = 2.
      await db.query('UNWIND [1, 1] AS x MERGE (m:Moved {k: 1}) SET m.k = 2');
      expect((await db.query('MATCH (m:Moved) RETURN count(m), m.k')).rows).toEqual([[1n, 2n]]);
      // Every row returns the value the last row set, as if SET ran over the whole table first.
      const r = await db.query('UNWIND [1, 2, 3] AS x MERGE (m:Last) SET m.v = x RETURN m.v AS v');
      expect(r.rows).toEqual([[3n], [3n], [3n]]);
      // A MERGE after a MERGE of the same label sees all of the first one's nodes.
      await db.query('UNWIND [1, 2] AS x MERGE (a:Pair {k: x}) MERGE (b:Pair {k: 3 - x})');
      expect((await db.query('MATCH (p:Pair) RETURN count(p)')).rows).toEqual([[2n]]);
    });
  });
});
