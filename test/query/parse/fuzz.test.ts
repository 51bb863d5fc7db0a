import { describe, expect, it } from 'vitest';
import { bind } from '../../../src/query/bind/index.js';
import { parse } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';
import { loadTckQueries } from './tck-queries.js';
import { procedureCatalog, test_functions } from '../bind/test-catalog.js';

const procedures = procedureCatalog(['test.my.proc(in :: INTEGER?) :: (out :: STRING?)']);

/** mulberry32: a small seeded generator, so a failing input can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seed = Number(process.env['WEFT_FUZZ_SEED'] ?? Date.now() % 1_000_000);
const rounds = Number(process.env['WEFT_FUZZ_ROUNDS'] ?? 1500);

const fragments = [
  'MATCH', 'OPTIONAL', 'RETURN', 'WITH', 'WHERE', 'CREATE', 'MERGE', 'ON', 'SET', 'DELETE', 'UNWIND', 'AS', 'CALL',
  'YIELD', 'UNION', 'ALL', 'CASE', 'WHEN', 'THEN', 'END', 'EXISTS', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'OF',
  'TIMESTAMP', 'CONSTRAINT', 'INDEX', '(', ')', '[', ']', '{', '}', '-', '->', '<-', ':', ',', '.', '..', '*', '|',
  '=', '+=', '<>', '$', 'n', 'm', 'x', '`a`', "'s'", '"t', '0x', '0x1F', '0o7', '1', '1.5', '9223372036854775808',
  '/*', '*/', '//', '\\u12', '🙂', '\n', ' ',
];

describe('front end robustness (seeded)', () => {
  it(`parses and binds any text to a statement or a compile-time CypherError (seed ${seed}; replay with WEFT_FUZZ_SEED=${seed})`, () => {
    const random = rng(seed);
    const tck = loadTckQueries().map((q) => q.text);
    for (let round = 0; round < rounds; round++) {
      let text: string;
      const pick = random();
      if (pick < 0.3) {
        const n = 1 + Math.floor(random() * 25);
        text = Array.from({ length: n }, () => fragments[Math.floor(random() * fragments.length)]).join(' ');
      } else if (pick < 0.6) {
        // Rename: one identifier of a real query becomes another of its identifiers, which mostly
        // keeps the syntax and exercises the binder's scoping and kind checks.
        const base = tck[Math.floor(random() * tck.length)]!;
        const names = [...base.matchAll(/\b[a-zA-Z_]\w*\b/g)];
        const target = names[Math.floor(random() * names.length)];
        const other = names[Math.floor(random() * names.length)];
        text = target && other ? base.slice(0, target.index) + other[0] + base.slice(target.index + target[0].length) : base;
      } else {
        // Mutate a real query: cut, duplicate or splice a fragment at a random place.
        const base = tck[Math.floor(random() * tck.length)]!;
        const at = Math.floor(random() * (base.length + 1));
        const frag = fragments[Math.floor(random() * fragments.length)]!;
        const cut = Math.floor(random() * 4);
        text = base.slice(0, at) + frag + base.slice(at + cut);
      }
      let parsed;
      try {
        parsed = parse(text);
      } catch (e) {
        if (!(e instanceof CypherError)) {
          throw new Error(`seed ${seed} round ${round}: ${String(e)} for input:\n${text}`);
        }
        expect(e.type).toBe('SyntaxError');
        expect(e.phase).toBe('compile time');
        expect(e.message).toMatch(/line \d+, column \d+/);
        continue;
      }
      try {
        bind(parsed, { functions: test_functions, procedures });
      } catch (e) {
        if (!(e instanceof CypherError)) {
          throw new Error(`seed ${seed} round ${round}: bind threw ${String(e)} for input:\n${text}`);
        }
        expect(e.phase).toBe('compile time');
      }
    }
  });
});
