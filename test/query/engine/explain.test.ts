import { describe, expect, it } from 'vitest';
import { QueryEngine } from '../../../src/query/engine.js';
import type { IndexCatalog } from '../../../src/query/plan/explain.js';
import type { NodeState } from '../../../src/projections/graph/records.js';
import { find, withDb } from './support.js';

describe('EXPLAIN', () => {
  it('answers the QueryPlan shape with the summary details on the root', async () => {
    await withDb(async (db) => {
      await db.query("UNWIND range(1, 50) AS i CREATE (:Person {name: 'p' + toString(i), age: i, team: i % 5})");
      const plan = db.explain("MATCH (p:Person) WHERE p.name = 'p7' RETURN p.age");
      expect(plan.operator).toBe('ProduceResults');
      expect(Object.keys(plan.details)).toEqual(expect.arrayContaining(['explain', 'cost', 'estimated_time_ms', 'suggestions', 'suggestion_count']));
      for (const v of Object.values(plan.details)) expect(typeof v).toBe('string');
      expect(Number(plan.details['cost'])).toBeGreaterThan(0);
      expect(Number.isFinite(Number(plan.details['estimated_time_ms']))).toBe(true);
      expect(plan.details['explain']).toContain('NodeByLabelScan');
      // Estimates come from the distinct values of a sample: 50 names over 50 people, 5 teams.
      const scan = find(plan, 'NodeByLabelScan')!;
      expect(scan.estimated_rows).toBe(1);
      expect(scan.children).toEqual([]);
      expect(find(db.explain('MATCH (p:Person) WHERE p.team = 3 RETURN p.age'), 'NodeByLabelScan')!.estimated_rows).toBe(10);
      expect(find(db.explain('MATCH (p:Person) WHERE p.missing = 3 RETURN p.age'), 'NodeByLabelScan')!.estimated_rows).toBe(1);
    });
  });

  it('suggests an index for a label and property predicate, with severity and DDL', async () => {
    await withDb(async (db) => {
      const eq = db.explain("MATCH (p:Person) WHERE p.name = 'x' RETURN p");
      expect(eq.details['suggestion_count']).toBe('1');
      expect(eq.details['suggestions']).toContain('[WARNING]');
      expect(eq.details['suggestions']).toContain('CREATE INDEX idx_person_name FOR (p:Person) ON (p.name)');
      const range = db.explain('MATCH (p:Person) WHERE p.age > 30 RETURN p');
      expect(range.details['suggestions']).toContain('[INFO]');
      expect(range.details['suggestions']).toContain('CREATE INDEX idx_person_age FOR (p:Person) ON (p.age)');
      const none = db.explain('MATCH (p:Person) RETURN p');
      expect(none.details['suggestion_count']).toBe('0');
      expect(none.details['suggestions']).toBe('');
    });
  });

  it('asks the index catalog, so an existing index silences the suggestion', async () => {
    await withDb(async (db) => {
      const indexes: IndexCatalog = { hasIndex: (label, props) => label === 'Person' && props[0] === 'name' };
      const engine = new QueryEngine({ indexes });
      const plan = engine.explain("MATCH (p:Person) WHERE p.name = 'x' AND p.age = 3 RETURN p", db.database.latestCommitted());
      expect(plan.details['suggestion_count']).toBe('1');
      expect(plan.details['suggestions']).toContain('ON (p.age)');
      expect(plan.details['suggestions']).not.toContain('ON (p.name)');
    });
  });

  it('a catalog that can seek answers equality scans from its index, and EXPLAIN shows the seek', async () => {
    await withDb(async (db) => {
      await db.query("UNWIND range(1, 300) AS i CREATE (:Person {name: 'p' + toString(i % 100), age: i})");
      const graph = db.database.latestCommitted();
      // A stand-in index on :Person(name), built from the snapshot: name -> nodes.
      const byName = new Map<string, NodeState[]>();
      for (const n of graph.nodesWithLabel('Person')) {
        const name = n.props.get('name') as string;
        byName.set(name, [...(byName.get(name) ?? []), n]);
      }
      const seeks: string[] = [];
      const indexes: IndexCatalog = {
        hasIndex: (label, props) => label === 'Person' && props[0] === 'name',
        seek: (_reader, label, property, value) => {
          if (label !== 'Person' || property !== 'name') return undefined;
          seeks.push(String(value));
          return typeof value === 'string' ? (byName.get(value) ?? []) : [];
        },
      };
      const engine = new QueryEngine({ indexes });
      const text = "MATCH (p:Person {name: 'p7'}) WHERE p.age > 100 RETURN p.age ORDER BY p.age";
      const plan = engine.explain(text, graph);
      expect(find(plan, 'NodeIndexSeek')?.details['predicate']).toBe("p.name = 'p7'");
      // The name has its index; the age range still gets its advice.
      expect(plan.details['suggestions']).not.toContain('(p.name)');
      expect(plan.details['suggestions']).toContain('[INFO]');
      const ctx = { params: new Map(), memory_limit_bytes: 64 * 1024 * 1024, now_us: 0 };
      const seeked = engine.execute(engine.prepare(text), graph, ctx).rows;
      expect(seeks).toEqual(['p7']);
      const scanned = new QueryEngine().execute(new QueryEngine().prepare(text), graph, ctx).rows;
      expect(seeked).toEqual(scanned);
      expect(seeked).toEqual([[107n], [207n]]);
    });
  });

  it('is also a text prefix: EXPLAIN <query> returns the plan and runs nothing', async () => {
    await withDb(async (db) => {
      const r = await db.query('EXPLAIN CREATE (:X)');
      expect(r.columns).toEqual(['plan']);
      expect(String(r.rows[0]![0])).toContain('Create');
      expect((await db.query('MATCH (n) RETURN count(n)')).rows).toEqual([[0n]]);
    });
  });

  it('explains schema statements without running them', async () => {
    await withDb(async (db) => {
      const plan = db.explain('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
      expect(plan.operator).toBe('SchemaCommand');
      expect(plan.details['suggestion_count']).toBe('0');
    });
  });
});
