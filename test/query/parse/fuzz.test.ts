import { describe, expect, it } from 'vitest';
import { bind } from '../../../src/query/bind/index.js';
import { parse } from '../../../src/query/parse/index.js';
import { CypherError } from '../../../src/query/errors.js';
import { fuzzInput, rng } from './fuzz-inputs.js';
import { procedureCatalog, test_functions } from '../bind/test-catalog.js';

const procedures = procedureCatalog(['test.my.proc(in :: INTEGER?) :: (out :: STRING?)']);

const seed = Number(process.env['WEFT_FUZZ_SEED'] ?? Date.now() % 1_000_000);
const rounds = Number(process.env['WEFT_FUZZ_ROUNDS'] ?? 1500);

describe('front end robustness (seeded)', () => {
  it(`parses and binds any text to a statement or a compile-time CypherError (seed ${seed}; replay with WEFT_FUZZ_SEED=${seed})`, () => {
    const random = rng(seed);
    for (let round = 0; round < rounds; round++) {
      const text = fuzzInput(random);
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
