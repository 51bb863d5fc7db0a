import { describe, expect, it } from 'vitest';
import type { Expression, QueryStatement, ReturnClause, Statement } from '../../../src/query/ast/index.js';
import { parse, nesting_depth_max } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';

function query(text: string): QueryStatement {
  const s = parse(text);
  if (s.kind !== 'query') throw new Error(`expected a query, got ${s.kind}`);
  return s;
}

function returned(text: string): Expression[] {
  const clauses = query(text).query.parts[0]!.clauses;
  const ret = clauses[clauses.length - 1] as ReturnClause;
  return ret.projection.items.map((i) => i.expression);
}

function value(text: string): unknown {
  const e = returned(`RETURN ${text}`)[0]!;
  if (e.kind !== 'literal') throw new Error(`not a literal: ${e.kind}`);
  return e.value;
}

function failure(text: string): { type: string; detail: string; message: string } {
  try {
    parse(text);
  } catch (e) {
    if (e instanceof CypherError) return { type: e.type, detail: e.detail, message: e.message };
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('literals', () => {
  it('reads integers as bigint in every base, folding a leading minus into the literal', () => {
    expect(value('42')).toBe(42n);
    expect(value('0x1F')).toBe(31n);
    expect(value('0o17')).toBe(15n);
    expect(value('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(value('-0x8000000000000000')).toBe(-(2n ** 63n));
    expect(value('0x7FFFFFFFFFFFFFFF')).toBe(2n ** 63n - 1n);
  });

  it('refuses integers outside 64 bits with IntegerOverflow', () => {
    expect(failure('RETURN 9223372036854775808').detail).toBe('IntegerOverflow');
    expect(failure('RETURN -0o1000000000000000000001').detail).toBe('IntegerOverflow');
  });

  it('refuses malformed hexadecimal and octal literals with InvalidNumberLiteral', () => {
    expect(failure('RETURN 0x').detail).toBe('InvalidNumberLiteral');
    expect(failure('RETURN 0x1A2b3j4D5E6f7').detail).toBe('InvalidNumberLiteral');
    expect(failure('RETURN 0o8').detail).toBe('InvalidNumberLiteral');
  });

  it('reads floats as numbers, keeps negative zero and refuses overflow', () => {
    expect(value('1.5')).toBe(1.5);
    expect(value('.1e9')).toBe(1e8);
    expect(Object.is(value('-0.0'), -0)).toBe(true);
    expect(failure('RETURN 1.34E999').detail).toBe('FloatingPointOverflow');
  });

  it('decodes string escapes, including \\u and \\U, in either quote style', () => {
    expect(value(`'a\\tb\\'c'`)).toBe("a\tb'c");
    expect(value(`"\\u00e9\\U0001F642"`)).toBe('é🙂');
    expect(failure(`RETURN '\\u12'`).detail).toBe('InvalidUnicodeLiteral');
  });

  it('keeps keywords case-insensitive and names case-sensitive; backticks escape names', () => {
    const s = query('mAtCh (N:Person) ReTuRn N.`my name` AS `a``b`');
    const ret = s.query.parts[0]!.clauses[1] as ReturnClause;
    expect(ret.projection.items[0]!.alias).toBe('a`b');
    expect(ret.projection.items[0]!.expression).toMatchObject({ kind: 'property', key: 'my name', object: { name: 'N' } });
  });
});

describe('expressions', () => {
  it('follows openCypher precedence: unary minus binds tighter than ^, ^ tighter than *', () => {
    expect(returned('RETURN -2 ^ 2 * 3')[0]).toMatchObject({
      kind: 'binary',
      op: 'mul',
      left: { kind: 'binary', op: 'pow', left: { kind: 'literal', value: -2n } },
    });
  });

  it('desugars a comparison chain into a conjunction', () => {
    expect(returned('RETURN 1 < 2 <= 3')[0]).toMatchObject({
      kind: 'binary',
      op: 'and',
      left: { op: 'lt' },
      right: { op: 'lte' },
    });
  });

  it('reads comprehensions, quantifiers, reduce, CASE, map projections and label predicates', () => {
    const [lc, pc, q, r, c, mp, hl, ex] = returned(
      'MATCH (n) RETURN [x IN [1,2] WHERE x > 1 | x * 2], [(n)-->(m) | m.name], all(x IN [1] WHERE x > 0),' +
        ' reduce(acc = 0, x IN [1,2] | acc + x), CASE n.a WHEN 1 THEN 2 ELSE 3 END, n {.name, .*, k: 1}, n:A:B,' +
        ' EXISTS { (n)-->() }',
    );
    expect(lc).toMatchObject({ kind: 'list_comprehension', variable: 'x' });
    expect(pc).toMatchObject({ kind: 'pattern_comprehension', path: { relationships: [{ direction: 'out' }] } });
    expect(q).toMatchObject({ kind: 'quantifier', quantifier: 'all' });
    expect(r).toMatchObject({ kind: 'reduce', accumulator: 'acc', variable: 'x' });
    expect(c).toMatchObject({ kind: 'case', subject: { kind: 'property' } });
    expect(mp).toMatchObject({ kind: 'map_projection', items: [{ kind: 'property' }, { kind: 'all_properties' }, { kind: 'entry' }] });
    expect(hl).toMatchObject({ kind: 'has_labels', labels: ['A', 'B'] });
    expect(ex).toMatchObject({ kind: 'exists_subquery', body: { kind: 'pattern' } });
  });

  it('reads parameters by name and by number', () => {
    expect(returned('RETURN $name, $0')).toMatchObject([
      { kind: 'parameter', name: 'name' },
      { kind: 'parameter', name: '0' },
    ]);
  });

  it('keeps the verbatim text of each projection item', () => {
    const ret = query('MATCH (n) RETURN aVg(    n.aGe     ), cOuNt( * )').query.parts[0]!.clauses[1] as ReturnClause;
    expect(ret.projection.items.map((i) => i.text)).toEqual(['aVg(    n.aGe     )', 'cOuNt( * )']);
  });
});

describe('patterns', () => {
  it('reads directions, types, variable lengths and named paths', () => {
    const m = query('MATCH p = (a)-[r:T|:U*1..3]->(b)<-[:S*]-(c)-[*2]-(d) RETURN p').query.parts[0]!.clauses[0]!;
    expect(m).toMatchObject({
      kind: 'match',
      pattern: [
        {
          variable: 'p',
          relationships: [
            { variable: 'r', types: ['T', 'U'], direction: 'out', range: { min: 1, max: 3 } },
            { types: ['S'], direction: 'in', range: {} },
            { direction: 'both', range: { min: 2, max: 2 } },
          ],
        },
      ],
    });
  });

  it('refuses a range without * and a negative bound with InvalidRelationshipPattern', () => {
    expect(failure('MATCH (a)-[:LIKES..]->(c) RETURN c').detail).toBe('InvalidRelationshipPattern');
    expect(failure('MATCH (a)-[:LIKES*-2]->(c) RETURN c').detail).toBe('InvalidRelationshipPattern');
  });

  it('refuses a pattern mixing -[*]- with quantified forms, as Neo4j 5 does, and lets separate patterns mix', () => {
    for (const text of [
      'MATCH (a)-[*]->(b)-[:R]->+(c) RETURN c',
      'MATCH (a)-[:R*1..2]->(b), (b) ((x)-->(y)){2} (c) RETURN c',
      'MATCH (a)-[*]->(b)-->{1,3}(c) RETURN c',
      'MATCH (a) RETURN [(a)-[*]->(b)-->+(c) | c]',
      'MATCH p = ANY 1 (a)-[*]->(b) ((x)-->(y))+ (c) RETURN p',
    ]) {
      expect(failure(text), text).toMatchObject({ type: 'SyntaxError', detail: 'InvalidQuantifiedPath' });
    }
    // A pattern inside an expression of the pattern is a pattern of its own, and so is the next MATCH's.
    expect(() => parse('MATCH (a)-->+(b) WHERE EXISTS { (b)-[*]->() } RETURN b')).not.toThrow();
    expect(() => parse('MATCH (a)-[*]->(b) MATCH (b)-->+(c) RETURN c')).not.toThrow();
    expect(() => parse('MATCH (a WHERE COUNT { (a)-[*2]->() } > 1)-->+(b) RETURN b')).not.toThrow();
  });

  it('gives a path all its names: the path variable and the subpath variables of its parentheses', () => {
    const match = query('MATCH p = SHORTEST 1 (q = (r = (a)-->+(b))) RETURN p').query.parts[0]!.clauses[0]!;
    if (match.kind !== 'match') throw new Error('expected MATCH');
    expect([match.pattern[0]!.variable, match.pattern[0]!.also]).toEqual(['p', ['q', 'r']]);
    expect(failure('MATCH (q = (a)-->(b)) RETURN q')).toMatchObject({ type: 'SyntaxError', detail: 'InvalidPathSelector' });
  });

  it('refuses shortestPath over a quantified relationship or quantified path pattern', () => {
    for (const text of [
      'MATCH p = shortestPath((a)-->+(b)) RETURN p',
      'MATCH p = allShortestPaths((a)-[:R]->{1,3}(b)) RETURN p',
      'MATCH p = shortestPath(((a)-[:R]->(b)){1,3}) RETURN p',
    ]) {
      expect(failure(text), text).toMatchObject({ type: 'SyntaxError', detail: 'InvalidShortestPath' });
    }
  });
});

describe('clause composition', () => {
  it('refuses mixing UNION and UNION ALL', () => {
    expect(failure('RETURN 1 AS a UNION RETURN 2 AS a UNION ALL RETURN 3 AS a').detail).toBe('InvalidClauseComposition');
  });

  it('refuses a query that ends with a reading clause or returns before its end', () => {
    expect(failure('MATCH (n)').detail).toBe('InvalidClauseComposition');
    expect(failure('RETURN 1 MATCH (n) RETURN n').detail).toBe('InvalidClauseComposition');
  });

  it('allows YIELD * only in a standalone call', () => {
    expect(parse('CALL db.labels() YIELD *').kind).toBe('query');
    expect(failure('CALL db.labels() YIELD * RETURN label').detail).toBe('UnexpectedSyntax');
  });

  it('reads MERGE actions and every SET and REMOVE form', () => {
    const clauses = query(
      'MERGE (n:A {k: 1}) ON CREATE SET n.c = 1 ON MATCH SET n += {m: 2} SET n = {}, n:B REMOVE n.k, n:A RETURN n',
    ).query.parts[0]!.clauses;
    expect(clauses[0]).toMatchObject({ kind: 'merge', on_create: [{ kind: 'set_property' }], on_match: [{ kind: 'merge_properties' }] });
    expect(clauses[1]).toMatchObject({ kind: 'set', items: [{ kind: 'replace_properties' }, { kind: 'set_labels', labels: ['B'] }] });
    expect(clauses[2]).toMatchObject({ kind: 'remove', items: [{ kind: 'remove_property' }, { kind: 'remove_labels' }] });
  });
});

describe("Weft's extensions", () => {
  it('reads AS OF TIMESTAMP before the query, after a MATCH pattern, or at the end', () => {
    for (const text of [
      'AS OF TIMESTAMP 1700000000000000 MATCH (n) RETURN n',
      'MATCH (n) AS OF TIMESTAMP 1700000000000000 WHERE n.x = 1 RETURN n',
      'MATCH (n) RETURN n AS OF TIMESTAMP 1700000000000000',
    ]) {
      expect(query(text).as_of).toMatchObject({ kind: 'literal', value: 1700000000000000n });
    }
    expect(query('MATCH (n) RETURN n AS OF TIMESTAMP $ts').as_of).toMatchObject({ kind: 'parameter', name: 'ts' });
    expect(failure('AS OF TIMESTAMP 1 MATCH (n) RETURN n AS OF TIMESTAMP 2').detail).toBe('UnexpectedSyntax');
  });

  it('reads hints after USING and in hint comments', () => {
    const s = query("USING vector_consistency('snapshot') MATCH (n) /*+ vector_build_wait(250) */ RETURN n");
    expect(s.hints.map((h) => h.name)).toEqual(['vector_consistency', 'vector_build_wait']);
    expect(s.hints[1]!.args[0]).toMatchObject({ kind: 'literal', value: 250n });
  });

  it('reads the session command SET vector_consistency = ...', () => {
    expect(parse("SET vector_consistency = 'exact'")).toEqual<Statement>(
      expect.objectContaining({ kind: 'session_set', name: 'vector_consistency', value: 'exact' }),
    );
  });

  it('reads every constraint form', () => {
    expect(parse('CREATE CONSTRAINT c IF NOT EXISTS FOR (p:Person) REQUIRE p.email IS UNIQUE')).toMatchObject({
      kind: 'create_constraint',
      name: 'c',
      if_not_exists: true,
      label: 'Person',
      requirement: { kind: 'unique', properties: ['email'] },
    });
    expect(parse('CREATE CONSTRAINT FOR (p:P) REQUIRE (p.a, p.b) IS NODE KEY')).toMatchObject({
      requirement: { kind: 'node_key', properties: ['a', 'b'] },
    });
    expect(parse('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS NOT NULL')).toMatchObject({ requirement: { kind: 'not_null' } });
    expect(parse('CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS :: LIST<STRING>')).toMatchObject({
      requirement: { kind: 'property_type', type: { name: 'LIST', element: { name: 'STRING' } } },
    });
    expect(parse('DROP CONSTRAINT c IF EXISTS')).toMatchObject({ kind: 'drop_constraint', name: 'c', if_exists: true });
  });

  it('reads every index form', () => {
    expect(parse('CREATE INDEX idx ON Person(name)')).toMatchObject({ kind: 'create_index', name: 'idx', label: 'Person', properties: ['name'] });
    expect(parse("CREATE UNIQUE INDEX u ON Person(email) WHERE status = 'active'")).toMatchObject({
      unique: true,
      where: { kind: 'binary', op: 'eq' },
    });
    expect(parse('CREATE INDEX i IF NOT EXISTS FOR (n:L) ON (n.a, n.b)')).toMatchObject({ variable: 'n', properties: ['a', 'b'] });
    expect(parse('DROP INDEX i')).toMatchObject({ kind: 'drop_index', name: 'i', if_exists: false });
  });
});

describe('syntax errors', () => {
  it('are SyntaxError at compile time, located by line and column', () => {
    const e = failure('MATCH (n)\nRETURN n +');
    expect(e.type).toBe('SyntaxError');
    expect(e.detail).toBe('UnexpectedSyntax');
    expect(e.message).toContain('line 2, column 11');
  });

  it('refuse nesting beyond the bound instead of exhausting the stack', () => {
    const deep = nesting_depth_max + 1;
    expect(failure(`RETURN ${'('.repeat(deep)}1${')'.repeat(deep)}`).message).toContain('nests deeper');
    expect(failure(`RETURN ${Array(5000).fill('1').join(' + ')}`).message).toContain('nests deeper');
    expect(parse(`RETURN ${'['.repeat(nesting_depth_max - 1)}1${']'.repeat(nesting_depth_max - 1)}`).kind).toBe('query');
  });

  it('report an empty query as such', () => {
    expect(failure('').message).toContain('the query is empty');
    expect(failure('  // only a comment\n').message).toContain('the query is empty');
  });

  it('report unterminated strings and comments', () => {
    expect(failure("RETURN 'abc").message).toContain('unterminated string');
    expect(failure('RETURN 1 /* no end').message).toContain('unterminated comment');
  });
});
