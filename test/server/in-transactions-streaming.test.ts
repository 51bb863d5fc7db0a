import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/common/values/value.js';
import type { CypherCall } from '../../src/api/query-service.js';
import type { QueryPlan } from '../../src/query/plan/explain.js';
import { withDb } from '../query/engine/support.js';
import { cypherCall } from '../support/cypher-call.js';
import { failure } from '../support/failure.js';
import { countLabel, withRunner } from '../support/runner-db.js';

/**
 * The input of `CALL { } IN TRANSACTIONS` streams when nothing before the CALL writes: it reads the
 * statement's first snapshot, pinned while the statement runs, instead of being held whole behind a
 * barrier before the first batch commits. The same statement with a write before the CALL keeps the
 * barrier, and is the peer: under one memory limit, the streamed form runs and the held one cannot.
 */
const call = (text: string, memory_limit_bytes: number, params: Record<string, Value> = {}): CypherCall => cypherCall(text, params, { memory_limit_bytes });

function operatorsOf(plan: QueryPlan): string[] {
  return [plan.operator, ...plan.children.flatMap(operatorsOf)];
}

describe('IN TRANSACTIONS input streaming', () => {
  it('the plan holds no barrier under a streamed input; a write before the CALL brings it back', async () => {
    await withDb(async (engine) => {
    const streamed = engine.explain('MATCH (n:Item) CALL (n) { SET n.done = true } IN TRANSACTIONS OF 10 ROWS');
    expect(streamed.operator === 'TransactionForeach' || operatorsOf(streamed).includes('TransactionForeach')).toBe(true);
    const tx = (p: QueryPlan): QueryPlan | undefined => (p.operator === 'TransactionForeach' ? p : p.children.map(tx).find((x) => x !== undefined));
    expect(tx(streamed)!.details['input']).toBe('streamed');
    expect(operatorsOf(tx(streamed)!.children[0]!)).not.toContain('Eager');
    const held = engine.explain('CREATE (:Marker) WITH 1 AS one MATCH (n:Item) CALL (n) { SET n.done = true } IN TRANSACTIONS OF 10 ROWS');
    expect(tx(held)!.details['input']).toBeUndefined();
    expect(operatorsOf(tx(held)!.children[0]!)).toContain('Eager');
    });
  });

  it('20,000 input rows under a memory limit: streamed they run in batches, held behind a barrier they exceed it', async () => {
    await withRunner('streaming', async (db, runner) => {
      await runner.autoCommit(call('UNWIND range(1, 20000) AS i CREATE (:Big {i: i})', 256 << 20), db.latestCommitted());
      const limit = 2 << 20;
      const held = await failure(
        runner.autoCommit(call('CREATE (:Marker) WITH 1 AS one MATCH (n:Big) CALL (n) { SET n.done = true } IN TRANSACTIONS OF 200 ROWS', limit), db.latestCommitted()),
      );
      expect(held).toMatchObject({ code: 'RESOURCE_EXHAUSTED', reason: 'EXCEEDS_MEMORY_BUDGET' });
      const out = await runner.autoCommit(call('MATCH (n:Big) CALL (n) { SET n.done = true } IN TRANSACTIONS OF 200 ROWS', limit), db.latestCommitted());
      expect(out.rows).toEqual([]);
      expect((await runner.autoCommit(call('MATCH (n:Big) WHERE n.done RETURN count(n)', 256 << 20), db.latestCommitted())).rows).toEqual([[20000n]]);
    });
  });

  it('the input reads the first snapshot: nodes the batches create are not read again, and later batches see earlier writes', async () => {
    await withRunner('streaming', async (db, runner) => {
      await runner.autoCommit(call('UNWIND range(1, 7) AS i CREATE (:Item {i: i}) CREATE (:Counter {n: 0})', 256 << 20), db.latestCommitted());
      await runner.autoCommit(call('MATCH (c:Counter) WITH c SKIP 1 DETACH DELETE c', 256 << 20), db.latestCommitted());
      await runner.autoCommit(call('MATCH (n:Item) CALL (n) { CREATE (:Item {i: n.i + 100}) } IN TRANSACTIONS OF 2 ROWS', 256 << 20), db.latestCommitted());
      expect(await countLabel(db, runner, 'Item')).toBe(14n);
      const seen = await runner.autoCommit(
        call('MATCH (n:Item) WHERE n.i < 100 CALL (n) { MATCH (c:Counter) SET c.n = c.n + 1 RETURN c.n AS seen } IN TRANSACTIONS OF 3 ROWS RETURN seen ORDER BY seen', 256 << 20),
        db.latestCommitted(),
      );
      expect(seen.rows).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n].map((n) => [n]));
    });
  });
});
