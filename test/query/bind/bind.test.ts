import { describe, expect, it } from 'vitest';
import { bind, type BoundQueryStatement, type BoundStatement } from '../../../src/query/bind/index.js';
import type { BoundClause, BoundProjection } from '../../../src/query/bind/bound-clause.js';
import { parse } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';
import { procedureCatalog, test_functions } from './test-catalog.js';

const procedures = procedureCatalog(['test.labels() :: (label :: STRING?)', 'test.echo(in :: INTEGER?) :: (out :: INTEGER?)']);

function compile(text: string, parameters?: string[]): BoundStatement {
  return bind(parse(text), { functions: test_functions, procedures, ...(parameters && { parameters: new Set(parameters) }) });
}

function query(text: string): BoundQueryStatement {
  const s = compile(text);
  if (s.kind !== 'query') throw new Error(`expected a query, got ${s.kind}`);
  return s;
}

function clauses(text: string): readonly BoundClause[] {
  return query(text).query.parts[0]!.clauses;
}

function projection(text: string, index: number): BoundProjection {
  const c = clauses(text)[index]!;
  if (c.kind !== 'with' && c.kind !== 'return') throw new Error(`clause ${index} is ${c.kind}`);
  return c.projection;
}

function failure(text: string, parameters?: string[]): { type: string; detail: string; message: string } {
  try {
    compile(text, parameters);
  } catch (e) {
    if (e instanceof CypherError) return { type: e.type, detail: e.detail, message: e.message };
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('variables and slots', () => {
  it('gives every binding its own slot, and a WITH column a new slot even when it passes a variable through', () => {
    const s = query('MATCH (n)-->(m) WITH n RETURN n');
    const match = s.query.parts[0]!.clauses[0]!;
    const w = projection('MATCH (n)-->(m) WITH n RETURN n', 1);
    expect(match.kind === 'match' && match.introduced.map((v) => v.name)).toEqual(['n', 'm', expect.stringMatching(/^ {2}rel/)]);
    expect(w.columns[0]!.variable.id).not.toBe(0);
    expect(s.variables.every((v, i) => v.id === i)).toBe(true);
  });

  it('resolves a repeated pattern variable to one slot', () => {
    const m = clauses('MATCH (a)-->(b)-->(a) RETURN a')[0]!;
    if (m.kind !== 'match') throw new Error('match');
    const [first, , last] = m.pattern[0]!.nodes;
    expect(first!.variable.id).toBe(last!.variable.id);
  });

  it('marks pattern elements bound before the clause', () => {
    const c = clauses('MATCH (a) CREATE (a)-[:R]->(b) RETURN b')[1]!;
    if (c.kind !== 'create') throw new Error('create');
    expect(c.pattern[0]!.nodes.map((n) => n.bound)).toEqual([true, false]);
  });

  it('types variables: a variable-length relationship holds a list, UNWIND takes the element type', () => {
    const s = query('MATCH p = (a)-[r*1..2]->(b) WITH collect(a) AS xs, p UNWIND xs AS x MATCH (x)-->() RETURN x, p');
    const byName = new Map(s.variables.filter((v) => v.visible).map((v) => [v.name, v] as const));
    expect(byName.get('r')!.kind).toBe('relationships');
    expect(byName.get('x')!.kind).toBe('node');
    expect(byName.get('p')!.kind).toBe('path');
  });

  it('refuses undefined variables everywhere, including SET, DELETE and ORDER BY', () => {
    expect(failure('MATCH (a) SET b.x = 1').detail).toBe('UndefinedVariable');
    expect(failure('MATCH (a) DELETE b').detail).toBe('UndefinedVariable');
    expect(failure('MATCH (a) WITH a AS x RETURN x ORDER BY a.y').detail).toBe('UndefinedVariable');
  });

  it('refuses reusing a name with another kind, or rebinding it', () => {
    expect(failure('MATCH ()-[r]->() MATCH (r) RETURN r').detail).toBe('VariableTypeConflict');
    expect(failure('WITH 1 AS n MATCH (n) RETURN n').detail).toBe('VariableTypeConflict');
    expect(failure('MATCH (a) UNWIND [1] AS a RETURN a').detail).toBe('VariableAlreadyBound');
    expect(failure('MATCH (a) CREATE (a:L)').detail).toBe('VariableAlreadyBound');
  });

  it('lets a value of unknown type stand for a node', () => {
    expect(query('MATCH (a) WITH head(collect(a)) AS n MATCH (n)-->(m) RETURN m').kind).toBe('query');
  });
});

describe('projections', () => {
  it('separates grouping keys from aggregates and rewrites aggregating columns over them', () => {
    const p = projection('MATCH (n)-->(m) RETURN n.a AS a, count(m) AS c, n.a + count(*) AS d', 1);
    expect(p.aggregation!.keys.map((k) => k.variable.name)).toEqual(['a']);
    expect(p.aggregation!.aggregates.map((a) => `${a.call.name}${a.call.star ? '(*)' : ''}`)).toEqual(['count', 'count(*)']);
    const d = p.columns[2]!.expression;
    expect(d).toMatchObject({ kind: 'binary', op: 'add', left: { kind: 'variable', variable: { name: 'a' } } });
  });

  it('computes one aggregate once however often it is written', () => {
    const p = projection('MATCH (n) RETURN count(n) AS a, count(n) + 1 AS b', 1);
    expect(p.aggregation!.aggregates).toHaveLength(1);
  });

  it('refuses aggregates outside projections, nested aggregates, and ambiguous mixes', () => {
    expect(failure('MATCH (n) WHERE count(n) > 1 RETURN n').detail).toBe('InvalidAggregation');
    expect(failure('MATCH (n) RETURN count(count(n))').detail).toBe('NestedAggregation');
    expect(failure('MATCH (n) RETURN n.a + count(*)').detail).toBe('AmbiguousAggregationExpression');
    expect(failure('MATCH (n) RETURN [x IN [1] | count(*)]').detail).toBe('InvalidAggregation');
  });

  it('expands RETURN * and WITH * into the visible variables, by name', () => {
    const p = projection('MATCH (b)-->(a) RETURN *', 1);
    expect(p.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(failure('MATCH () RETURN *').detail).toBe('NoVariablesInScope');
  });

  it('lets ORDER BY see aliases and, without aggregation or DISTINCT, the dropped variables', () => {
    const p = projection('MATCH (n) RETURN n.name AS name ORDER BY name, n.age DESC', 1);
    expect(p.order.map((o) => o.direction)).toEqual(['asc', 'desc']);
    expect(p.order[1]!.expression).toMatchObject({ kind: 'property', object: { kind: 'variable', variable: { id: 0 } } });
    expect(failure('MATCH (n) RETURN DISTINCT n.name AS name ORDER BY n.age').detail).toBe('UndefinedVariable');
  });

  it('reads an ORDER BY expression equal to a column from that column after aggregation', () => {
    const p = projection('MATCH (n) RETURN n.x, count(*) ORDER BY count(*) DESC, n.x', 1);
    expect(p.order.map((o) => o.expression)).toMatchObject([
      { kind: 'variable', variable: { name: 'count(*)' } },
      { kind: 'variable', variable: { name: 'n.x' } },
    ]);
  });

  it('names unaliased columns by their text and refuses duplicates', () => {
    expect(projection('MATCH (n) RETURN aVg(    n.aGe     )', 1).columns[0]!.name).toBe('aVg(    n.aGe     )');
    expect(failure('RETURN 1 AS a, 2 AS a').detail).toBe('ColumnNameConflict');
    expect(failure('MATCH (a) WITH a, count(*) RETURN a').detail).toBe('NoExpressionAlias');
  });

  it('checks SKIP and LIMIT are constant non-negative integers', () => {
    expect(projection('MATCH (n) RETURN n SKIP $s LIMIT 3', 1).limit).toMatchObject({ kind: 'literal', value: 3n });
    expect(failure('MATCH (n) RETURN n LIMIT n.x').detail).toBe('NonConstantExpression');
    expect(failure('MATCH (n) RETURN n LIMIT -1').detail).toBe('NegativeIntegerArgument');
    expect(failure('MATCH (n) RETURN n SKIP 1.5').detail).toBe('InvalidArgumentType');
  });

  it('lets WITH ... WHERE read a dropped variable when the projection does not aggregate', () => {
    const p = projection('MATCH (a) WITH a.x AS x WHERE a.y = 1 RETURN x', 1);
    expect(p.where_reads_input).toBe(true);
    expect(failure('MATCH (a) WITH count(*) AS c WHERE a.y = 1 RETURN c').detail).toBe('UndefinedVariable');
  });

  it('requires the parts of a UNION to return the same columns', () => {
    expect(query('RETURN 1 AS a UNION ALL RETURN 2 AS a').query).toMatchObject({ union_all: true, columns: ['a'] });
    expect(failure('RETURN 1 AS a UNION RETURN 2 AS b').detail).toBe('DifferentColumnsInUnion');
  });
});

describe('patterns and updates', () => {
  it('refuses what CREATE and MERGE cannot make', () => {
    expect(failure('CREATE (a)-[:R*2]->(b)').detail).toBe('CreatingVarLength');
    expect(failure('CREATE (a)-[:R|S]->(b)').detail).toBe('NoSingleRelationshipType');
    expect(failure('CREATE (a)-[:R]-(b)').detail).toBe('RequiresDirectedRelationship');
    expect(compile('MERGE (a)-[:R]-(b)').kind).toBe('query');
    expect(failure('MATCH (a)-[r]->(b) MERGE (a)-[r]->(b)').detail).toBe('VariableAlreadyBound');
  });

  it('accepts a parameter map in CREATE but not in MATCH or MERGE', () => {
    expect(compile('CREATE (n $props)').kind).toBe('query');
    expect(failure('MATCH (n $props) RETURN n').detail).toBe('InvalidParameterUse');
    expect(failure('MERGE (n $props)').detail).toBe('InvalidParameterUse');
  });

  it('allows a pattern as a predicate only in WHERE, and only over bound variables', () => {
    expect(compile('MATCH (a), (b) WHERE NOT (a)-->(b) OR (b)-->(a) RETURN a').kind).toBe('query');
    expect(failure('MATCH (a) WHERE (a)-[r]->() RETURN a').detail).toBe('UndefinedVariable');
    expect(failure('MATCH (a) RETURN (a)-->()').detail).toBe('UnexpectedSyntax');
    expect(failure('MATCH (a) WHERE (a) RETURN a').detail).toBe('InvalidArgumentType');
  });

  it('binds EXISTS subqueries against the enclosing scope and refuses updates inside them', () => {
    expect(compile('MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.x = n.x RETURN m } RETURN n').kind).toBe('query');
    expect(compile('MATCH (n) WHERE EXISTS { (n)-->(m) WHERE m.x = 1 } RETURN n').kind).toBe('query');
    expect(failure('MATCH (n) WHERE EXISTS { CREATE (m) } RETURN n').detail).toBe('InvalidClauseComposition');
  });

  it('refuses deleting a label or a non-entity', () => {
    expect(failure('MATCH (n) DELETE n:L').detail).toBe('InvalidDelete');
    expect(failure('MATCH (n) DELETE 1 + 1').detail).toBe('InvalidArgumentType');
  });
});

describe('functions, procedures and parameters', () => {
  it('checks functions against the catalog', () => {
    expect(failure('RETURN nope(1)').detail).toBe('UnknownFunction');
    expect(failure('RETURN toLower(1, 2)').detail).toBe('InvalidNumberOfArguments');
    expect(failure("RETURN toLower(DISTINCT 'A')").detail).toBe('InvalidArgumentPassingMode');
    expect(compile('MATCH (n) RETURN vector_distance(n.embedding, $q) AS d, text_match(n.body, $t) AS hit').kind).toBe('query');
  });

  it('refuses arguments of a kind a graph function can never take', () => {
    expect(failure('MATCH p = (a) RETURN labels(p)').detail).toBe('InvalidArgumentType');
    expect(failure('RETURN properties(1)').detail).toBe('InvalidArgumentType');
    expect(failure("RETURN any(x IN ['a'] WHERE x % 2 = 0)").detail).toBe('InvalidArgumentType');
    expect(failure('RETURN 1 IN 2').detail).toBe('InvalidArgumentType');
    expect(failure("RETURN NOT 'x'").detail).toBe('InvalidArgumentType');
  });

  it('names a refused function as the query wrote it, and refuses length() of anything but a path', () => {
    expect(failure('RETURN toUpper(1)').message).toContain('toUpper() does not accept');
    expect(failure('RETURN SQRT(true)').message).toContain('SQRT() does not accept');
    expect(failure("RETURN length('abc')").detail).toBe('InvalidArgumentType');
    expect(failure('RETURN length([1, 2])').detail).toBe('InvalidArgumentType');
  });

  it('binds procedure calls: standalone calls return every output, in-query calls bind what they yield', () => {
    const standalone = query('CALL test.labels');
    expect(standalone.query.columns).toEqual(['label']);
    const inQuery = query('CALL test.echo(1) YIELD out AS o RETURN o');
    expect(inQuery.query.columns).toEqual(['o']);
    expect(failure('CALL test.echo(1, 2)').detail).toBe('InvalidNumberOfArguments');
    const missing = failure('CALL nothing.here()');
    expect([missing.type, missing.detail]).toEqual(['ProcedureError', 'ProcedureNotFound']);
  });

  it('reads implicit procedure arguments from parameters and reports a missing one', () => {
    expect(query('CALL test.echo').parameters).toEqual(['in']);
    const e = failure('CALL test.echo', []);
    expect([e.type, e.detail]).toEqual(['ParameterMissing', 'MissingParameter']);
  });

  it('lists the parameters a statement uses', () => {
    expect(query('MATCH (n) WHERE n.x = $x AND n.y IN $ys RETURN n LIMIT $l').parameters).toEqual(['l', 'x', 'ys']);
  });
});

describe("Weft's statements", () => {
  it('binds AS OF TIMESTAMP as a constant commit_ts', () => {
    expect(query('MATCH (n) RETURN n AS OF TIMESTAMP 1700000000000000').as_of).toMatchObject({ value: 1700000000000000n });
    expect(failure("MATCH (n) RETURN n AS OF TIMESTAMP 'yesterday'").detail).toBe('InvalidArgumentType');
    expect(failure('MATCH (n) AS OF TIMESTAMP n.ts RETURN n').detail).toBe('NonConstantExpression');
    expect(failure('AS OF TIMESTAMP 5 MATCH (n) SET n.x = 1').detail).toBe('InvalidClauseComposition');
  });

  it('validates hints', () => {
    expect(query("USING vector_consistency('EXACT') /*+ vector_build_wait(0) */ MATCH (n) RETURN n").hints).toEqual({
      vector_consistency: 'exact',
      vector_build_wait_ms: 0,
    });
    expect(failure("USING vector_consistency('eventual') MATCH (n) RETURN n").detail).toBe('InvalidArgumentValue');
    expect(failure('USING vector_build_wait(-1) MATCH (n) RETURN n').detail).toBe('InvalidArgumentValue');
    expect(failure('USING index_please(1) MATCH (n) RETURN n').detail).toBe('UnknownHint');
  });

  it('binds the session command and reads an unknown setting as the query it looks like', () => {
    expect(compile("SET vector_consistency = 'snapshot'")).toMatchObject({
      kind: 'session_set',
      setting: { name: 'vector_consistency', value: 'snapshot' },
    });
    expect(failure("SET vector_consistency = 'sometimes'").detail).toBe('InvalidArgumentValue');
    expect(compile('SET vector_consistency = current')).toMatchObject({ setting: { value: 'current' } });
    expect(compile('SET vector_build_wait = 500')).toMatchObject({ setting: { name: 'vector_build_wait_ms', value: 500 } });
    expect(failure("SET n = 'x'").detail).toBe('UndefinedVariable');
  });

  it('binds constraints with their kind, properties, type and scope', () => {
    expect(compile('CREATE CONSTRAINT c FOR (p:Person) REQUIRE (p.a, p.b) IS NODE KEY')).toMatchObject({
      constraint: 'NODE_KEY',
      properties: ['a', 'b'],
    });
    expect(compile('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.v IS :: LIST<INTEGER>')).toMatchObject({
      constraint: 'PROPERTY_TYPE',
      property_type: { kind: 'array', element: { kind: 'scalar', scalar: 'INT64' } },
    });
    expect(compile('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.e IS :: VECTOR(768)')).toMatchObject({
      property_type: { kind: 'vector', dimensions: 768 },
    });
    expect(compile("CREATE CONSTRAINT c FOR (p:P) REQUIRE p.email IS UNIQUE WHERE p.tenant = 'acme'")).toMatchObject({
      constraint: 'UNIQUE',
      scope: { property: 'tenant', kind: 'equals', value: 'acme' },
    });
    expect(compile('CREATE CONSTRAINT c ON (p:P) ASSERT p.a IS UNIQUE')).toMatchObject({ constraint: 'UNIQUE', properties: ['a'] });
    expect(failure('CREATE CONSTRAINT c FOR (p:P) REQUIRE q.a IS UNIQUE').detail).toBe('UndefinedVariable');
    expect(failure('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS :: WIDGET').detail).toBe('InvalidPropertyType');
    expect(failure('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS NOT NULL WHERE p.b = 1').detail).toBe('InvalidArgumentValue');
  });

  it('binds indexes in both forms, with a scope only when unique', () => {
    expect(compile('CREATE INDEX idx ON Person(name)')).toMatchObject({ kind: 'create_index', label: 'Person', properties: ['name'], unique: false });
    expect(compile("CREATE UNIQUE INDEX u ON Person(email) WHERE status = 'active'")).toMatchObject({
      unique: true,
      scope: { property: 'status', kind: 'equals', value: 'active' },
    });
    expect(compile('CREATE UNIQUE INDEX u FOR (n:P) ON (n.e) WHERE n.e IS NOT NULL')).toMatchObject({ scope: { property: 'e', kind: 'present' } });
    expect(failure('CREATE INDEX i ON Person(name) WHERE status = 1').detail).toBe('InvalidArgumentValue');
    expect(failure('CREATE INDEX i ON Person(a, a)').detail).toBe('InvalidArgumentValue');
    expect(compile('DROP INDEX i IF EXISTS')).toMatchObject({ kind: 'drop_index', name: 'i', if_exists: true });
  });
});
