import { describe, expect, it } from 'vitest';
import { WeftError } from '../../../src/common/errors.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { withDb } from './support.js';
import { failure } from '../../support/failure.js';

const MiB = 1024 * 1024;

describe('statement memory limit', () => {
  it('a sort over its budget fails RESOURCE_EXHAUSTED / EXCEEDS_MEMORY_BUDGET with no partial result', async () => {
    await withDb(
      async (db) => {
        const e = await failure(db.query("UNWIND range(1, 200000) AS i RETURN 'row number ' + toString(i) AS s ORDER BY s"));
        expect(e.code).toBe('RESOURCE_EXHAUSTED');
        expect(e.reason).toBe('EXCEEDS_MEMORY_BUDGET');
        // The same statement within budget runs.
        expect((await db.query('UNWIND range(1, 1000) AS i RETURN i ORDER BY i DESC LIMIT 1')).rows).toEqual([[1000n]]);
      },
      { memory_limit_bytes: 4 * MiB },
    );
  });

  it('counts what aggregation, collect, DISTINCT and the result buffer hold', async () => {
    await withDb(
      async (db) => {
        for (const text of [
          'UNWIND range(1, 300000) AS i RETURN collect(i) AS xs',
          'UNWIND range(1, 300000) AS i RETURN i % 100000 AS k, count(*) AS c',
          'UNWIND range(1, 300000) AS i RETURN DISTINCT i',
          'UNWIND range(1, 300000) AS i RETURN i',
        ]) {
          const e = await failure(db.query(text));
          expect([text, e.reason]).toEqual([text, 'EXCEEDS_MEMORY_BUDGET']);
        }
        // Streaming work that holds nothing stays within the same budget.
        expect((await db.query('UNWIND range(1, 300000) AS i WITH i WHERE i % 7 = 0 RETURN count(*)')).rows).toEqual([[42857n]]);
      },
      { memory_limit_bytes: 4 * MiB },
    );
  });

  it('a write over budget changes nothing', async () => {
    await withDb(
      async (db) => {
        const e = await failure(db.query('UNWIND range(1, 100000) AS i CREATE (n:N {i: i}) RETURN n ORDER BY n.i'));
        expect(e.reason).toBe('EXCEEDS_MEMORY_BUDGET');
        expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[0n]]);
      },
      { memory_limit_bytes: 2 * MiB },
    );
  });
});

describe('statement deadline', () => {
  it('a write that returns nothing is charged for what its write set holds, not for rewriting the same node', async () => {
    await withDb(
      async (db) => {
        // No sort, no result, and a thousand input rows (which the eager buffer before CREATE holds
        // well within budget): only the write set grows, by nine entries per row.
        const e = await failure(db.query('UNWIND range(1, 1000) AS i CREATE (:N)-[:R]->(:N)-[:R]->(:N)-[:R]->(:N)-[:R]->(:N)'));
        expect(e.reason).toBe('EXCEEDS_MEMORY_BUDGET');
        expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[0n]]);
        // Setting one node five thousand times holds one entry and runs (charged per SET, it would not fit).
        await db.query('CREATE (:One)');
        await db.query('UNWIND range(1, 5000) AS i MATCH (o:One) SET o.v = i');
        expect((await db.query('MATCH (o:One) RETURN o.v')).rows).toEqual([[5000n]]);
      },
      { memory_limit_bytes: 2 * MiB },
    );
  });

  it('a long cartesian product stops with DEADLINE_EXCEEDED and the engine keeps serving', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 400) AS i CREATE (:N {i: i})');
      const engine = new QueryEngine();
      const graph = db.database.latestCommitted();
      const prepared = engine.prepare('MATCH (a:N), (b:N), (c:N) RETURN count(*)');
      const started = Date.now();
      let error: unknown;
      try {
        engine.execute(prepared, graph, { params: new Map(), memory_limit_bytes: 64 * MiB, now_us: Date.now() * 1000, deadline_ms: Date.now() + 50 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WeftError);
      expect((error as WeftError).code).toBe('DEADLINE_EXCEEDED');
      // Checked every few rows: it stops soon after the deadline, far before the 64 million rows.
      expect(Date.now() - started).toBeLessThan(2000);
      const r = engine.execute(engine.prepare('MATCH (n:N) RETURN count(n)'), graph, { params: new Map(), memory_limit_bytes: MiB, now_us: 0 });
      expect(r.rows).toEqual([[400n]]);
    });
  });

  it('the embedded API applies its statement timeout', async () => {
    await withDb(
      async (db) => {
        await db.query('UNWIND range(1, 300) AS i CREATE (:N)');
        const e = await failure(db.query('MATCH (a:N), (b:N), (c:N) RETURN count(*)'));
        expect(e.code).toBe('DEADLINE_EXCEEDED');
      },
      { statement_timeout_ms: 30 },
    );
  });
});

describe('deep and wide statements', () => {
  it('a variable-length search along a very long chain neither overflows the stack nor loses paths', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 20000) AS i CREATE (:C {i: i})');
      await db.query(
        'MATCH (c:C) WITH c ORDER BY c.i WITH collect(c) AS cs UNWIND range(0, size(cs) - 2) AS k WITH cs[k] AS a, cs[k + 1] AS b CREATE (a)-[:NEXT]->(b)',
      );
      const r = await db.query('MATCH (a:C {i: 1})-[:NEXT*]->(b) RETURN count(*) AS paths, max(b.i) AS last');
      expect(r.rows).toEqual([[19999n, 20000n]]);
    });
  });
});

describe('values built inside an expression', () => {
  it('a reduce that doubles a list stops at the budget instead of exhausting the process', async () => {
    await withDb(
      async (db) => {
        const e = await failure(db.query('RETURN size(reduce(l = [1], i IN range(1, 60) | l + l)) AS n'));
        expect([e.code, e.reason]).toEqual(['RESOURCE_EXHAUSTED', 'EXCEEDS_MEMORY_BUDGET']);
        const s = await failure(db.query("RETURN size(reduce(s = 'ab', i IN range(1, 60) | s + s)) AS n"));
        expect([s.code, s.reason]).toEqual(['RESOURCE_EXHAUSTED', 'EXCEEDS_MEMORY_BUDGET']);
        expect((await db.query('RETURN size(reduce(l = [1], i IN range(1, 10) | l + l)) AS n')).rows).toEqual([[1024n]]);
      },
      { memory_limit_bytes: 64 * MiB },
    );
  });
});
