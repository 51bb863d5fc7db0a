import { describe, expect, it } from 'vitest';
import { WeftError } from '../../../src/common/errors.js';
import { fuzzInput, rng } from '../parse/fuzz-inputs.js';
import { withDb } from './support.js';

/**
 * Random and mutated query text, executed for a bounded time against a small graph under a memory
 * limit and a statement deadline: every input gives a result or a typed error (WeftError, which
 * CypherError is), never another exception, a crash or a hang.
 */
const seed = Number(process.env['WEFT_SEED'] ?? Date.now() % 1_000_000);
const budget_ms = Number(process.env['WEFT_FUZZ_MS'] ?? 15_000);
const statement_ms_max = 5_000;

describe('engine robustness (seeded)', () => {
  it(`executes fuzzed Cypher to a result or a typed error (seed ${seed}; replay with WEFT_SEED=${seed})`, async () => {
    const random = rng(seed);
    await withDb(
      async (db) => {
        await db.query("CREATE (a:A {name: 'a', num: 1})-[:T {k: 1}]->(b:B {name: 'b', num: 2.5}), (b)-[:T]->(a), (:A:B {list: [1, 2]})");
        const params = { param: 1n, 0: 'x', 1: 2n, name: 'a', list: [1n, 2n], map: new Map([['k', 1n]]) };
        let rounds = 0;
        let results = 0;
        const end = Date.now() + budget_ms;
        while (Date.now() < end) {
          const text = fuzzInput(random);
          rounds++;
          const started = Date.now();
          try {
            await db.query(text, params);
            results++;
          } catch (e) {
            if (!(e instanceof WeftError)) throw new Error(`seed ${seed} round ${rounds}: ${String(e)}\n${(e as Error).stack ?? ''}\ninput:\n${text}`);
          }
          expect(Date.now() - started, `seed ${seed} round ${rounds} took too long:\n${text}`).toBeLessThan(statement_ms_max * 2);
        }
        console.log(`execution fuzz: ${rounds} inputs, ${results} results, ${rounds - results} typed errors`);
        expect(rounds).toBeGreaterThan(50);
      },
      { memory_limit_bytes: 16 * 1024 * 1024, statement_timeout_ms: statement_ms_max },
    );
  }, 120_000);
});
