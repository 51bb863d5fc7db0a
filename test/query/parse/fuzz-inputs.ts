import { loadTckQueries } from './tck-queries.js';

/**
 * Fuzz inputs shared by the front-end and execution fuzz tests: random fragment soup, real TCK queries
 * with one identifier renamed, and real queries with a fragment spliced in. Seeded, so a failing
 * input replays from its seed.
 */

/** mulberry32: a small seeded generator, so a failing input can be replayed from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fragments = [
  'MATCH', 'OPTIONAL', 'RETURN', 'WITH', 'WHERE', 'CREATE', 'MERGE', 'ON', 'SET', 'DELETE', 'UNWIND', 'AS', 'CALL',
  'YIELD', 'UNION', 'ALL', 'CASE', 'WHEN', 'THEN', 'END', 'EXISTS', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'OF',
  'TIMESTAMP', 'CONSTRAINT', 'INDEX', '(', ')', '[', ']', '{', '}', '-', '->', '<-', ':', ',', '.', '..', '*', '|',
  '=', '+=', '<>', '$', 'n', 'm', 'x', '`a`', "'s'", '"t', '0x', '0x1F', '0o7', '1', '1.5', '9223372036854775808',
  '/*', '*/', '//', '\\u12', '🙂', '\n', ' ',
  'shortestPath', 'allShortestPaths', 'p =', '*0..', '*..3',
];

let tck: string[] | undefined;

/** One fuzz input. */
export function fuzzInput(random: () => number): string {
  const queries = (tck ??= loadTckQueries().map((q) => q.text));
  let text: string;
  const pick = random();
  if (pick < 0.3) {
    const n = 1 + Math.floor(random() * 25);
    text = Array.from({ length: n }, () => fragments[Math.floor(random() * fragments.length)]).join(' ');
  } else if (pick < 0.6) {
    // Rename: one identifier of a real query becomes another of its identifiers, which mostly
    // keeps the syntax and exercises the binder's scoping and kind checks.
    const base = queries[Math.floor(random() * queries.length)]!;
    const names = [...base.matchAll(/\b[a-zA-Z_]\w*\b/g)];
    const target = names[Math.floor(random() * names.length)];
    const other = names[Math.floor(random() * names.length)];
    text = target && other ? base.slice(0, target.index) + other[0] + base.slice(target.index + target[0].length) : base;
  } else if (pick < 0.7) {
    // Wrap the first pattern of a real query in shortestPath or allShortestPaths: the search's
    // checks and its plan meet every kind of pattern the TCK has.
    const base = queries[Math.floor(random() * queries.length)]!;
    const m = /MATCH (\([^,]*?\))( WHERE| RETURN| WITH| CREATE| SET| DELETE|,|$)/.exec(base);
    const wrap = random() < 0.5 ? 'shortestPath' : 'allShortestPaths';
    text = m === null ? base : `${base.slice(0, m.index)}MATCH p = ${wrap}(${m[1]})${base.slice(m.index + 6 + m[1]!.length)}`;
  } else {
    // Mutate a real query: cut, duplicate or splice a fragment at a random place.
    const base = queries[Math.floor(random() * queries.length)]!;
    const at = Math.floor(random() * (base.length + 1));
    const frag = fragments[Math.floor(random() * fragments.length)]!;
    const cut = Math.floor(random() * 4);
    text = base.slice(0, at) + frag + base.slice(at + cut);
  }
  return text;
}
