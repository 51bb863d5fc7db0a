import { describe, expect, it } from 'vitest';
import { CypherError } from '../../../src/query/errors.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { ProcedureRegistry } from '../../../src/query/execute/procedures.js';
import { integer_type } from '../../../src/query/bind/static-type.js';
import { withDb } from './support.js';

async function cypherError(p: Promise<unknown>): Promise<CypherError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CypherError) return e;
    throw e;
  }
  throw new Error('expected a CypherError');
}

describe('the engine interface', () => {
  it('classifies statements for the server and caches them by text', () => {
    const engine = new QueryEngine();
    expect(engine.prepare('MATCH (n) RETURN n').kind).toBe('read');
    expect(engine.prepare('CREATE (n)').kind).toBe('write');
    expect(engine.prepare('CREATE INDEX i FOR (n:L) ON (n.p)').kind).toBe('schema');
    expect(engine.prepare("SET vector_consistency = 'exact'").kind).toBe('session');
    expect(engine.prepare('MATCH (n) RETURN n')).toBe(engine.prepare('MATCH (n) RETURN n'));
    const schema = engine.prepare('CREATE INDEX i FOR (n:L) ON (n.p)');
    expect(schema.statement.kind).toBe('create_index');
  });

  it('a missing parameter is ParameterMissing before anything runs', async () => {
    await withDb(async (db) => {
      const e = await cypherError(db.query('CREATE (:N {v: $v})'));
      expect([e.type, e.phase, e.detail]).toEqual(['ParameterMissing', 'compile time', 'MissingParameter']);
      expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[0n]]);
    });
  });

  it('reading a node the statement deleted is EntityNotFound / DeletedEntityAccess', async () => {
    await withDb(async (db) => {
      await db.query("CREATE (:N {name: 'a'})");
      const e = await cypherError(db.query('MATCH (n:N) DELETE n RETURN n.name'));
      expect([e.type, e.phase, e.detail]).toEqual(['EntityNotFound', 'runtime', 'DeletedEntityAccess']);
      expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[1n]]);
    });
  });

  it('AS OF TIMESTAMP reads the graph as it was at a commit', async () => {
    await withDb(async (db) => {
      await db.query("CREATE (:P {name: 'first'})");
      const ts = db.database.lastCommittedTs;
      await db.query("CREATE (:P {name: 'second'})");
      const then = await db.query('AS OF TIMESTAMP $ts MATCH (p:P) RETURN p.name', { ts: BigInt(ts) });
      expect(then.rows).toEqual([['first']]);
      const now = await db.query('MATCH (p:P) RETURN p.name ORDER BY p.name');
      expect(now.rows).toEqual([['first'], ['second']]);
    });
  });

  it('runs registered procedures with CALL, in a query and standalone', async () => {
    const procedures = new ProcedureRegistry();
    procedures.register({
      name: 'test.squares',
      inputs: [{ name: 'n', type: integer_type }],
      outputs: [{ name: 'square', type: integer_type }],
      call: ([n]) => Array.from({ length: Number(n) }, (_, i) => [BigInt((i + 1) * (i + 1))]),
    });
    await withDb(
      async (db) => {
        expect((await db.query('CALL test.squares(3)')).rows).toEqual([[1n], [4n], [9n]]);
        const r = await db.query('UNWIND [1, 2] AS k CALL test.squares(k) YIELD square RETURN k, square');
        expect(r.rows).toEqual([[1n, 1n], [2n, 1n], [2n, 4n]]);
      },
      { procedures },
    );
  });

  it('pattern comprehensions see the elements their pattern binds', async () => {
    await withDb(async (db) => {
      await db.query("CREATE (a:A)-[:R {w: 1}]->(:B {name: 'b1'}), (a)-[:R {w: 2}]->(:B {name: 'b2'})");
      const r = await db.query('MATCH (a:A) RETURN [(a)-->(b) | b.name] AS names, [(a)-[r]->() | r.w] AS ws');
      expect(r.rows).toEqual([[['b1', 'b2'], [1n, 2n]]]);
    });
  });

  it('reports the write counters of QueryStats', async () => {
    await withDb(async (db) => {
      const c = await db.query("CREATE (a:A:B {x: 1, y: 'z'})-[:R {w: 2}]->(b:A)");
      expect(c.stats).toMatchObject({ nodes_created: 2, edges_created: 1, properties_set: 3, labels_added: 3 });
      const s = await db.query('MATCH (a:B) SET a.x = 2, a:C REMOVE a:B, a.y');
      expect(s.stats).toMatchObject({ properties_set: 2, labels_added: 1, labels_removed: 1 });
      const d = await db.query('MATCH (n) DETACH DELETE n');
      expect(d.stats).toMatchObject({ nodes_deleted: 2, edges_deleted: 1 });
    });
  });

  it('deleting a node that keeps a relationship fails DeleteConnectedNode and changes nothing', async () => {
    await withDb(async (db) => {
      await db.query('CREATE (:A)-[:R]->(:B)');
      const e = await cypherError(db.query('MATCH (a:A) DELETE a'));
      expect([e.type, e.detail]).toEqual(['ConstraintValidationFailed', 'DeleteConnectedNode']);
      expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[2n]]);
    });
  });
});

describe('writes after deletes', () => {
  it('creating a relationship to a node the statement deleted fails DeletedEntityAccess and changes nothing', async () => {
    await withDb(async (db) => {
      await db.query('CREATE (a:A)-[:T]->(b:B)');
      await expect(db.query('MATCH (a:A)-[t:T]->(b:B) DELETE t, a CREATE (a)-[:R]->(b)')).rejects.toMatchObject({ type: 'EntityNotFound', detail: 'DeletedEntityAccess' });
      const { rows } = await db.query('MATCH (n) RETURN count(n)');
      expect(rows[0]![0]).toBe(2n);
    });
  });
});
