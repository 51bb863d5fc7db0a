import { describe, expect, it } from 'vitest';
import { IntegerIds, integer_ids_dense_min } from '../../src/server/import/integer-ids.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * The ID space of integer ids: dense ids in the direct table, the rest in the hash table, and both
 * answering exactly what a Map would, whatever the mix.
 */
describe('integer ID space', () => {
  it('maps dense ids from 0 and from 1, growing the direct table as they arrive', () => {
    const ids = new IntegerIds();
    const n = integer_ids_dense_min * 3;
    for (let i = 1; i <= n; i++) ids.set(i, i + 100);
    expect(ids.get(0)).toBeUndefined();
    expect(ids.get(1)).toBe(101);
    expect(ids.get(n)).toBe(n + 100);
    expect(ids.get(n + 1)).toBeUndefined();
    expect(ids.size).toBe(n);
  });

  it('keeps negative, sparse and 64-bit-range ids apart from dense ones, including ids that agree in their low 32 bits', () => {
    const ids = new IntegerIds();
    const keys = [-1, -(2 ** 32), 2 ** 32, 2 ** 32 + 5, 5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 10 ** 12, 0];
    keys.forEach((k, i) => ids.set(k, i + 1));
    keys.forEach((k, i) => expect(ids.get(k)).toBe(i + 1));
    expect(ids.has(2 ** 32 + 6)).toBe(false);
    expect(ids.has(-2)).toBe(false);
    expect(ids.get(6)).toBeUndefined();
  });

  it('answers as a Map does for a random mix of dense and sparse ids', () => {
    const seed = testSeed('integer ID space');
    const random = prng(seed);
    const ids = new IntegerIds();
    const map = new Map<number, number>();
    for (let node = 1; node <= 50_000; node++) {
      const r = random();
      const id = r < 0.6 ? Math.floor(random() * 200_000) : r < 0.8 ? -Math.floor(random() * 2 ** 40) : Math.floor(random() * 2 ** 52);
      if (map.has(id)) continue;
      map.set(id, node);
      ids.set(id, node);
    }
    for (const [id, node] of map) expect(ids.get(id), `seed ${seed}, id ${id}`).toBe(node);
    for (let i = 0; i < 10_000; i++) {
      const probe = Math.floor(random() * 400_000) - 100_000;
      expect(ids.get(probe), `seed ${seed}, probe ${probe}`).toBe(map.get(probe));
    }
    expect(ids.size).toBe(map.size);
  });
});
