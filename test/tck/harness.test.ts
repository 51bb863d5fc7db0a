import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DateValue } from '../../src/common/values/temporal.js';
import { nodeRef, pathValue, relationshipRef, type Value } from '../../src/common/values/value.js';
import { argumentError, syntaxError } from '../../src/query/errors.js';
import { compareTables, tckEquals } from './compare.js';
import { parseTckValue, showTckValue, type TckValue } from './expected-value.js';
import { FakeEngine, type FakeHandler } from './fake-engine.js';
import { parseFeature } from './features.js';
import { parseProcedureSignature } from './procedure.js';
import { renderValue } from './render.js';
import { runCase } from './runner.js';
import { sideEffects } from './side-effects.js';
import type { TckGraphState } from './engine.js';

const v = parseTckValue;
const eq = (a: string, b: string, unordered = false): boolean => tckEquals(v(a), v(b), unordered);

describe('TCK value parser: the tricky cells of STEPS.md section 4', () => {
  it('reads a string with escaped quote and backslash after Gherkin unescaping', () => {
    // The feature file writes 'a\\\\b\'c'; Gherkin leaves 'a\\b\'c'; the value is a\b'c.
    expect(v("'a\\\\b\\'c'")).toEqual({ k: 'string', v: "a\\b'c" });
    expect(v("''")).toEqual({ k: 'string', v: '' });
    expect(v("'x\\ny'")).toEqual({ k: 'string', v: 'x\\ny' });
  });

  it('keeps 64-bit integers exact and tells integers from floats', () => {
    expect(v('9223372036854775807')).toEqual({ k: 'int', v: 9223372036854775807n });
    expect(v('-9223372036854775808')).toEqual({ k: 'int', v: -9223372036854775808n });
    expect(v('1')).toEqual({ k: 'int', v: 1n });
    expect(v('1.0')).toEqual({ k: 'float', v: 1 });
    expect(Object.is((v('-0.0') as { v: number }).v, -0)).toBe(true);
    expect(v('1e-305')).toEqual({ k: 'float', v: 1e-305 });
    expect(v('1.23456789e308')).toEqual({ k: 'float', v: 1.23456789e308 });
    expect(v('.5')).toEqual({ k: 'float', v: 0.5 });
    expect(v('-.5e3')).toEqual({ k: 'float', v: -500 });
    expect(Number.isNaN((v('NaN') as { v: number }).v)).toBe(true);
  });

  it('tells a relationship from a list by the colon after the bracket', () => {
    expect(v('[:T]').k).toBe('rel');
    expect(v('[:T {p: 1}]')).toEqual({ k: 'rel', type: 'T', props: new Map([['p', { k: 'int', v: 1n }]]) });
    expect(v('[1, [2]]').k).toBe('list');
    expect(v('[]')).toEqual({ k: 'list', items: [] });
  });

  it('reads nodes, maps and paths', () => {
    expect(v('()')).toEqual({ k: 'node', labels: [], props: new Map() });
    expect(v("(:A:B {p: 1, q: 'x'})")).toEqual({
      k: 'node',
      labels: ['A', 'B'],
      props: new Map<string, TckValue>([
        ['p', { k: 'int', v: 1n }],
        ['q', { k: 'string', v: 'x' }],
      ]),
    });
    expect(v("({name: 'n'})").k).toBe('node');
    expect(v('{}')).toEqual({ k: 'map', entries: new Map() });
    const p = v('<(:A)-[:T]->(:B)<-[:S]-(:C)>');
    expect(p.k === 'path' && p.hops.map((h) => `${h.dir}${h.rel.type}`)).toEqual(['->T', '<-S']);
    expect(v('<()>')).toEqual({ k: 'path', start: { k: 'node', labels: [], props: new Map() }, hops: [] });
  });

  it('reads nested mixed values and renders them back', () => {
    const text = "[1, 2.5, 'x', null, true, {a: [1, {b: ()}]}, [:R {w: -1}]]";
    expect(showTckValue(v(text))).toBe("[1, 2.5, 'x', null, true, {a: [1, {b: ()}]}, [:R {w: -1}]]");
  });

  it('rejects malformed cells', () => {
    expect(() => v("'open")).toThrow(/unterminated/);
    expect(() => v('[1, 2')).toThrow();
    expect(() => v('1 2')).toThrow(/trailing/);
    expect(() => v('{a: 1, a: 2}')).toThrow(/duplicate/);
  });
});

describe('TCK value comparison', () => {
  it('never equates an integer with a float, but NaN with NaN', () => {
    expect(eq('1', '1.0')).toBe(false);
    expect(eq('1', '1')).toBe(true);
    expect(eq('NaN', 'NaN')).toBe(true);
    expect(eq('[NaN]', '[NaN]')).toBe(true);
  });

  it('ignores map key order and label order, not list order unless told', () => {
    expect(eq('{a: 1, b: 2}', '{b: 2, a: 1}')).toBe(true);
    expect(eq('(:A:B)', '(:B:A)')).toBe(true);
    expect(eq('(:A)', '(:A:B)')).toBe(false);
    expect(eq('[1, 2]', '[2, 1]')).toBe(false);
    expect(eq('[1, 2]', '[2, 1]', true)).toBe(true);
    expect(eq('[[1, 2], [3]]', '[[3], [2, 1]]', true)).toBe(true);
    expect(eq('[1, 1, 2]', '[1, 2, 2]', true)).toBe(false);
  });

  it('compares paths hop by hop with direction', () => {
    expect(eq('<(:A)-[:T]->(:B)>', '<(:A)-[:T]->(:B)>')).toBe(true);
    expect(eq('<(:A)-[:T]->(:B)>', '<(:A)<-[:T]-(:B)>')).toBe(false);
  });

  it('matches rows as a multiset where duplicates count, or in order', () => {
    const t = (rows: string[][]) => ({ columns: ['x'], rows: rows.map((r) => r.map(v)) });
    expect(compareTables(t([['1'], ['1'], ['2']]), t([['2'], ['1'], ['1']]), 'any', false)).toBeUndefined();
    expect(compareTables(t([['1'], ['1'], ['2']]), t([['2'], ['2'], ['1']]), 'any', false)).toBeDefined();
    expect(compareTables(t([['1'], ['2']]), t([['2'], ['1']]), 'ordered', false)).toMatch(/^row 0 differs/);
    expect(compareTables(t([]), { columns: ['y'], rows: [] }, 'any', false)).toMatch(/columns differ/);
  });
});

describe('rendering engine values for comparison', () => {
  it('renders temporal values as their ISO text and paths with directions', async () => {
    const e = new FakeEngine(new Map());
    const a = e.addNode(['A'], { name: 'a' });
    const b = e.addNode(['B']);
    const r = e.addRel('T', b, a, { w: 1n });
    expect(await renderValue(new DateValue(0), e)).toEqual({ k: 'string', v: '1970-01-01' });
    const p = await renderValue(pathValue([a, b], [r]), e);
    expect(showTckValue(p)).toBe("<(:A {name: 'a'})<-[:T {w: 1}]-(:B)>");
    expect(showTckValue(await renderValue([nodeRef(a), relationshipRef(r)], e))).toBe("[(:A {name: 'a'}), [:T {w: 1}]]");
  });
});

const FEATURE = `Feature: Sample

  Background:
    Given an empty graph

  Scenario: [1] plain
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
    And no side effects

  Scenario Outline: [2] outline
    When executing query:
      """
      RETURN <v> AS x
      """
    Then the result should be, in any order:
      | x   |
      | <v> |

    Examples:
      | v |
      | 1 |
      | 2 |

    Examples:
      | v |
      | 3 |

  @ignore
  Scenario: [3] ignored
    When executing query:
      """
      RETURN 3 AS x
      """
    Then the result should be empty
`;

describe('feature loading', () => {
  it('expands outlines per Examples row, applies the Background and skips @ignore', () => {
    const f = parseFeature(FEATURE.replace(/\n/g, '\r\n'), 'dir/Sample.feature');
    expect(f.rawScenarios).toBe(3);
    expect(f.cases.map((c) => c.id)).toEqual([
      'dir/Sample.feature|1|-1',
      'dir/Sample.feature|2|0',
      'dir/Sample.feature|2|1',
      'dir/Sample.feature|2|2',
    ]);
    expect(f.skipped).toEqual(['dir/Sample.feature|3|-1']);
    const row3 = f.cases[3];
    expect(row3?.steps[0]?.text).toBe('an empty graph');
    expect(row3?.steps[1]?.argument?.docString?.content).toBe('RETURN 3 AS x');
    expect(row3?.steps[2]?.argument?.dataTable?.rows[1]?.cells[0]?.value).toBe('3');
  });

  it('parses procedure signatures, including the odd ones', () => {
    expect(parseProcedureSignature('test.my.proc(in :: INTEGER?) :: (out :: STRING?)')).toEqual({
      name: 'test.my.proc',
      inputs: [{ name: 'in', type: 'INTEGER?' }],
      outputs: [{ name: 'out', type: 'STRING?' }],
    });
    expect(parseProcedureSignature('test.doNothing() :: ()')).toEqual({ name: 'test.doNothing', inputs: [], outputs: [] });
    expect(parseProcedureSignature('test.p(a :: NUMBER?, b :: FLOAT?) :: (c :: INTEGER?) :').inputs).toHaveLength(2);
  });
});

describe('side-effect counting', () => {
  const state = (
    nodes: [number, string[], Record<string, Value>][],
    rels: [number, string, Record<string, Value>][] = [],
  ): TckGraphState => ({
    nodes: new Map(nodes.map(([id, labels, props]) => [id, { labels, properties: new Map(Object.entries(props)) }])),
    relationships: new Map(rels.map(([id, type, props]) => [id, { type, properties: new Map(Object.entries(props)) }])),
  });

  it('counts observable changes only', () => {
    const before = state([[1, ['L'], { a: 1n, b: 'x' }]]);
    const after = state(
      [
        [1, ['L'], { a: 2n, b: 'x' }],
        [2, ['L', 'M'], {}],
      ],
      [[3, 'T', { w: 1.5 }]],
    );
    expect(sideEffects(before, after)).toEqual({
      '+nodes': 1,
      '-nodes': 0,
      '+relationships': 1,
      '-relationships': 0,
      '+properties': 2,
      '-properties': 1,
      '+labels': 1,
      '-labels': 0,
    });
  });

  it('treats an integer and a float of one value as different property values', () => {
    expect(sideEffects(state([[1, [], { a: 1n }]]), state([[1, [], { a: 1 }]]))['+properties']).toBe(1);
    expect(sideEffects(state([[1, [], { a: 1n }]]), state([[1, [], { a: 1n }]]))['+properties']).toBe(0);
  });

  it('counts the properties of a deleted node as removed', () => {
    const fx = sideEffects(state([[1, ['L'], { a: 1n }]]), state([]));
    expect(fx).toMatchObject({ '-nodes': 1, '-properties': 1, '-labels': 1 });
  });
});

function caseOf(body: string) {
  const parsed = parseFeature(`Feature: F\n\n${body}`, 'F.feature');
  const c = parsed.cases[0];
  if (c === undefined) throw new Error('no case');
  return c;
}

const opts = { graphsDir: '/nonexistent' };

describe('running cases against a fake engine', () => {
  const create: FakeHandler = (g, _p, e) => {
    e.addNode(['L'], { num: 1n });
    return { columns: [], rows: [] };
  };
  const handlers = new Map<string, FakeHandler>([
    ['CREATE (:L {num: 1})', create],
    ['MATCH (n) RETURN n', (g) => ({ columns: ['n'], rows: [...g.nodes.keys()].map((id) => [nodeRef(id)]) })],
    ['RETURN $x AS x', (_g, p) => ({ columns: ['x'], rows: [[p.get('x') ?? null]] })],
    [
      'RETURN 1 +',
      () => {
        throw syntaxError('UnexpectedSyntax', 'unexpected end');
      },
    ],
    [
      'RETURN range(1, 2, 0)',
      () => {
        throw argumentError('NumberOutOfRange', 'step 0');
      },
    ],
    ['FAIL', () => ({ columns: [], rows: [] })],
  ]);

  it('passes a create with side effects and a control query', async () => {
    const c = caseOf(`  Scenario: [1] create
    Given an empty graph
    When executing query:
      """
      CREATE (:L {num: 1})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 1 |
      | +labels     | 1 |
    When executing control query:
      """
      MATCH (n) RETURN n
      """
    Then the result should be, in any order:
      | n             |
      | (:L {num: 1}) |
`);
    const r = await runCase(c, new FakeEngine(handlers), opts);
    expect(r).toEqual({ id: 'F.feature|1|-1', outcomes: { strict: 'pass', type: 'pass', lenient: 'pass' } });
  });

  it('fails wrong side effects at every level', async () => {
    const c = caseOf(`  Scenario: [1] create
    Given an empty graph
    When executing query:
      """
      CREATE (:L {num: 1})
      """
    Then the result should be empty
    And no side effects
`);
    const r = await runCase(c, new FakeEngine(handlers), opts);
    expect(r.outcomes).toEqual({ strict: 'fail', type: 'fail', lenient: 'fail' });
    expect(r.message).toMatch(/\+nodes expected 0 got 1/);
  });

  it('binds parameters parsed from the table', async () => {
    const c = caseOf(`  Scenario: [1] params
    Given any graph
    And parameters are:
      | x | [1, 'a', {k: 2.0}] |
    When executing query:
      """
      RETURN $x AS x
      """
    Then the result should be, in any order:
      | x                  |
      | [1, 'a', {k: 2.0}] |
    And no side effects
`);
    expect((await runCase(c, new FakeEngine(handlers), opts)).outcomes.strict).toBe('pass');
  });

  it('grades errors at three levels', async () => {
    const scenario = (type: string, phase: string, detail: string) =>
      caseOf(`  Scenario: [1] err
    Given any graph
    When executing query:
      """
      RETURN range(1, 2, 0)
      """
    Then ${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} should be raised at ${phase}: ${detail}
`);
    const run = async (type: string, phase: string, detail: string) =>
      (await runCase(scenario(type, phase, detail), new FakeEngine(handlers), opts)).outcomes;
    expect(await run('ArgumentError', 'runtime', 'NumberOutOfRange')).toEqual({ strict: 'pass', type: 'pass', lenient: 'pass' });
    expect(await run('ArgumentError', 'runtime', 'InvalidArgumentValue')).toEqual({ strict: 'fail', type: 'pass', lenient: 'pass' });
    expect(await run('TypeError', 'runtime', 'NumberOutOfRange')).toEqual({ strict: 'fail', type: 'fail', lenient: 'pass' });
    expect(await run('Error', 'any time', '*')).toEqual({ strict: 'pass', type: 'pass', lenient: 'pass' });
    expect(await run('ArgumentError', 'compile time', 'NumberOutOfRange')).toEqual({ strict: 'fail', type: 'pass', lenient: 'pass' });
  });

  it('fails an expected error when the query succeeds, and an unexpected error', async () => {
    const expectsError = caseOf(`  Scenario: [1] err
    Given any graph
    When executing query:
      """
      MATCH (n) RETURN n
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax
`);
    expect((await runCase(expectsError, new FakeEngine(handlers), opts)).outcomes.lenient).toBe('fail');
    const expectsRows = caseOf(`  Scenario: [1] rows
    Given any graph
    When executing query:
      """
      RETURN 1 + 
      """
    Then the result should be, in any order:
      | x |
      | 1 |
`);
    const r = await runCase(expectsRows, new FakeEngine(handlers), opts);
    expect(r.outcomes.lenient).toBe('fail');
    expect(r.message).toMatch(/unexpected error: SyntaxError/);
  });

  it('reports a failing setup query as a harness error, never a pass', async () => {
    const c = caseOf(`  Scenario: [1] setup
    Given an empty graph
    And having executed:
      """
      UNKNOWN SETUP
      """
    When executing query:
      """
      MATCH (n) RETURN n
      """
    Then the result should be, in any order:
      | n |
`);
    const r = await runCase(c, new FakeEngine(handlers), opts);
    expect(r.outcomes).toEqual({ strict: 'harness-error', type: 'harness-error', lenient: 'harness-error' });
    expect(r.message).toMatch(/setup query failed/);
  });

  it('registers fake procedures from the table', async () => {
    const engine = new FakeEngine(handlers);
    const c = caseOf(`  Scenario: [1] proc
    Given an empty graph
    And there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?) :
      | in | out |
      | 1  | 'a' |
      | 2  | 'b' |
    When executing query:
      """
      CREATE (:L {num: 1})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 1 |
      | +labels     | 1 |
`);
    expect((await runCase(c, engine, opts)).outcomes.strict).toBe('pass');
    expect(engine.procedures[0]).toEqual({
      name: 'test.my.proc',
      inputs: [{ name: 'in', type: 'INTEGER?' }],
      outputs: [{ name: 'out', type: 'STRING?' }],
      rows: [
        [1n, 'a'],
        [2n, 'b'],
      ],
    });
  });

  it('loads a named graph from either layout, dropping the trailing semicolon', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tck-graphs-'));
    try {
      writeFileSync(join(dir, 'flat.cypher'), 'CREATE (:L {num: 1});\n');
      mkdirSync(join(dir, 'nested'));
      writeFileSync(join(dir, 'nested', 'nested.cypher'), 'CREATE (:L {num: 1})\n');
      for (const name of ['flat', 'nested']) {
        const engine = new FakeEngine(handlers);
        const c = caseOf(`  Scenario: [1] graph
    Given the ${name} graph
    When executing query:
      """
      MATCH (n) RETURN n
      """
    Then the result should be, in any order:
      | n             |
      | (:L {num: 1}) |
    And no side effects
`);
        expect((await runCase(c, engine, { graphsDir: dir })).outcomes.strict).toBe('pass');
        expect(engine.executed[0]).toBe('CREATE (:L {num: 1})');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a case that outlives its time bound', async () => {
    const slow = new Map<string, FakeHandler>([['SLOW', () => ({ columns: [], rows: [] })]]);
    const engine = new FakeEngine(slow);
    engine.execute = () => new Promise(() => undefined);
    const c = caseOf(`  Scenario: [1] slow
    Given any graph
    When executing query:
      """
      SLOW
      """
    Then the result should be empty
`);
    const r = await runCase(c, engine, { graphsDir: '/nonexistent', caseTimeoutMs: 50 });
    expect(r).toEqual({ id: 'F.feature|1|-1', outcomes: { strict: 'fail', type: 'fail', lenient: 'fail' }, message: 'timed out after 50 ms' });
  });

  it('treats an unknown step as a harness error', async () => {
    const c = caseOf(`  Scenario: [1] odd
    Given a graph nobody knows
    When executing query:
      """
      MATCH (n) RETURN n
      """
`);
    expect((await runCase(c, new FakeEngine(handlers), opts)).outcomes.strict).toBe('harness-error');
  });
});
