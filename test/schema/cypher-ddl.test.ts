import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, ConstraintState, IndexBuildState } from '../../src/gen/weft/v2/schema_pb.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Transactions } from '../../src/server/transactions.js';
import { schemaStatementHandler } from '../../src/server/index-builds/cypher-ddl.js';
import { failureOf, startInProcess, transports, type InProcess } from './harness.js';
import { cypherCall } from '../support/cypher-call.js';

/**
 * Cypher DDL through the CypherRunner's schema hook lands in the one catalog: the objects it makes are
 * the SchemaService's, seen identically over gRPC and REST, and Cypher writes meet the same constraints.
 */
let h: InProcess;
let runner: CypherRunner;
beforeAll(async () => {
  h = await startInProcess();
  runner = new CypherRunner(h.db);
  runner.handleSchemaWith(schemaStatementHandler(h.runtime.admin));
});
afterAll(async () => {
  await h?.close();
});

function cypher(text: string) {
  return runner.autoCommit(cypherCall(text), h.db.latestCommitted());
}

describe('Cypher DDL and the SchemaService share one catalog', () => {
  it('CREATE CONSTRAINT ... IS UNIQUE is the constraint CreateConstraint sees, on both transports', async () => {
    await cypher("CREATE (:Person {email: 'a@x'}), (:Person {email: 'b@x'})");
    await cypher('CREATE CONSTRAINT person_email FOR (p:Person) REQUIRE p.email IS UNIQUE');
    const views = [];
    for (const t of transports) {
      const c = (await h.schema(t, 'listConstraints', {})).constraints.find((x) => x.name === 'person_email');
      expect(c).toMatchObject({ kind: ConstraintKind.UNIQUE, state: ConstraintState.ACTIVE, label: 'Person', properties: ['email'] });
      expect(c?.build?.state).toBe(IndexBuildState.PUBLISHED);
      views.push(c);
      // The API's if_not_exists finds the Cypher-made constraint instead of making a second one.
      const same = await h.schema(t, 'createConstraint', { label: 'Person', properties: ['email'], kind: ConstraintKind.UNIQUE, ifNotExists: true });
      expect(same.name).toBe('person_email');
    }
    expect(views[0]).toEqual(views[1]);
    // Cypher writes meet it, like Graph service writes.
    expect(await failureOf(cypher("CREATE (:Person {email: 'a@x'})"))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'UNIQUE_VIOLATION' });
    expect(await failureOf(cypher("MATCH (p:Person {email: 'b@x'}) SET p.email = 'a@x'"))).toMatchObject({ reason: 'UNIQUE_VIOLATION' });
    // And the reverse: an API-made constraint is refused again by Cypher without IF NOT EXISTS.
    expect(await failureOf(cypher('CREATE CONSTRAINT person_email FOR (p:Person) REQUIRE p.name IS NOT NULL'))).toMatchObject({ code: 'ALREADY_EXISTS' });
    await cypher('CREATE CONSTRAINT person_email IF NOT EXISTS FOR (p:Person) REQUIRE p.name IS NOT NULL');
  });

  it('NOT NULL, NODE KEY and property types from Cypher; DROP CONSTRAINT with and without IF EXISTS', async () => {
    await cypher('CREATE CONSTRAINT FOR (d:Doc) REQUIRE d.title IS NOT NULL');
    await cypher('CREATE CONSTRAINT doc_pages FOR (d:Doc) REQUIRE d.pages IS :: INTEGER');
    await cypher('CREATE CONSTRAINT doc_key FOR (d:Doc) REQUIRE (d.shelf, d.slot) IS NODE KEY');
    const list = (await h.schema('grpc', 'listConstraints', {})).constraints.filter((c) => c.label === 'Doc');
    expect(list.map((c) => [c.name, ConstraintKind[c.kind]])).toEqual([
      ['Doc_title_not_null', 'NOT_NULL'],
      ['doc_key', 'NODE_KEY'],
      ['doc_pages', 'PROPERTY_TYPE'],
    ]);
    expect(await failureOf(cypher("CREATE (:Doc {title: 't', pages: 'many', shelf: 1, slot: 1})"))).toMatchObject({ reason: 'PROPERTY_TYPE_VIOLATION' });
    expect(await failureOf(cypher('CREATE (:Doc {pages: 1, shelf: 1, slot: 1})'))).toMatchObject({ reason: 'NOT_NULL_VIOLATION' });
    expect(await failureOf(cypher("CREATE (:Doc {title: 't', shelf: 1})"))).toMatchObject({ reason: 'NODE_KEY_VIOLATION' });
    await cypher("CREATE (:Doc {title: 't', pages: 3, shelf: 1, slot: 1})");
    await cypher('DROP CONSTRAINT doc_pages');
    expect(await failureOf(cypher('DROP CONSTRAINT doc_pages'))).toMatchObject({ code: 'NOT_FOUND' });
    await cypher('DROP CONSTRAINT doc_pages IF EXISTS');
    await h.schema('rest', 'dropConstraint', { name: 'doc_key' });
    expect((await h.schema('grpc', 'listConstraints', {})).constraints.filter((c) => c.label === 'Doc').map((c) => c.name)).toEqual(['Doc_title_not_null']);
  });

  it('CREATE UNIQUE INDEX ... WHERE is a scoped UNIQUE constraint owning the named index; DROP INDEX drops it', async () => {
    await cypher("CREATE UNIQUE INDEX active_handle ON Acct(handle) WHERE status = 'active'");
    const c = (await h.schema('grpc', 'listConstraints', {})).constraints.find((x) => x.name === 'active_handle');
    expect(c).toMatchObject({ backingIndex: 'active_handle', kind: ConstraintKind.UNIQUE });
    expect(c?.scope).toMatchObject({ property: 'status', test: { case: 'equalsString', value: 'active' } });
    await cypher("CREATE (:Acct {handle: 'h', status: 'active'}), (:Acct {handle: 'h', status: 'gone'})");
    expect(await failureOf(cypher("CREATE (:Acct {handle: 'h', status: 'active'})"))).toMatchObject({ reason: 'UNIQUE_VIOLATION' });
    await cypher('DROP INDEX active_handle');
    expect((await h.schema('grpc', 'listConstraints', {})).constraints.map((x) => x.name)).not.toContain('active_handle');
  });

  it('a transaction’s Cypher writes meet the constraints when it commits, including one created after it began', async () => {
    const txs = new Transactions(h.db, { idle_timeout_ms: 60_000, open_max: 4 });
    try {
      const concern = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
      const tx = txs.begin();
      const call = { text: "CREATE (:Ticket {code: 'T1'}), (:Ticket {code: 'T2'})", params: new Map(), level: 'LOCAL', after_index: 0, at_timestamp: 0, concern, transaction_id: tx.id, memory_limit_bytes: 64 << 20, signal: new AbortController().signal, vector_consistency: undefined, vector_build_wait_ms: undefined } as const;
      txs.run(tx, (ws) => runner.inTransaction(call, ws));
      await cypher("CREATE (:Ticket {code: 'T2'})");
      await cypher('CREATE CONSTRAINT ticket_code FOR (t:Ticket) REQUIRE t.code IS UNIQUE');
      expect(await failureOf(txs.commit(tx.id, [], concern))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'UNIQUE_VIOLATION' });
      const again = txs.begin();
      txs.run(again, (ws) => runner.inTransaction({ ...call, text: "CREATE (:Ticket {code: 'T3'})", transaction_id: again.id }, ws));
      await txs.commit(again.id, [], concern);
    } finally {
      txs.close();
    }
  });

  it('CREATE INDEX makes a B-tree index with its own build; an owned index cannot be dropped on its own', async () => {
    await cypher("CREATE (:City {name: 'Oslo'}), (:City {name: 'Lima'})");
    await cypher('CREATE INDEX city_name ON City(name)');
    const index = h.db.sm.schema.catalog.indexByName('city_name')!;
    expect(index.serving).toBeDefined();
    const builds = (await h.schema('rest', 'listIndexBuilds', {})).builds.filter((b) => b.index === 'city_name');
    expect(builds.map((b) => b.state)).toEqual([IndexBuildState.PUBLISHED]);
    await cypher('CREATE INDEX city_name IF NOT EXISTS ON City(name)');
    expect(await failureOf(cypher('CREATE INDEX city_name2 FOR (c:City) ON (c.name)'))).toMatchObject({ code: 'ALREADY_EXISTS' });
    const lookup = h.db.sm.schema.lookup(h.db.latestCommitted());
    expect([...lookup.equal(index.index_id, ['Lima'])].map((n) => n.props.get('name'))).toEqual(['Lima']);
    // An index a constraint owns goes only with the constraint.
    expect(await failureOf(cypher('DROP INDEX person_email_index'))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'INDEX_OWNED' });
    await cypher('DROP INDEX city_name');
    expect(await failureOf(cypher('DROP INDEX city_name'))).toMatchObject({ code: 'NOT_FOUND' });
    await cypher('DROP INDEX city_name IF EXISTS');
  });
});
