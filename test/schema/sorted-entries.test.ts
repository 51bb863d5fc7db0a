import { describe, expect, it } from 'vitest';
import { SortedEntries, compareKeys, type IndexKey } from '../../src/projections/indexes/sorted-entries.js';
import { prng, testSeed } from '../support/prng.js';

/** The ordered half of a B-tree index against a plain sorted list, through many chunk splits and merges. */
describe('sorted entries', () => {
  it('randomized adds and removes keep the order, the ids and the walks of a sorted list', () => {
    const seed = testSeed('sorted entries');
    const rand = prng(seed);
    const entries = new SortedEntries();
    const model = new Map<string, { key: IndexKey; ids: Set<number> }>();
    const keyOf = (): IndexKey => (rand() < 0.5 ? [BigInt(Math.floor(rand() * 3000))] : [`s${Math.floor(rand() * 3000)}`]);
    for (let step = 0; step < 30_000; step++) {
      const key = keyOf();
      const id = Math.floor(rand() * 4) + 1;
      const name = `${typeof key[0]}:${String(key[0])}`;
      if (rand() < 0.65) {
        entries.add(key, id);
        const m = model.get(name) ?? { key, ids: new Set<number>() };
        m.ids.add(id);
        model.set(name, m);
      } else {
        const removed = entries.remove(key, id);
        const m = model.get(name);
        expect(removed, `remove at step ${step} (seed ${seed})`).toBe(m?.ids.delete(id) ?? false);
        if (m !== undefined && m.ids.size === 0) model.delete(name);
      }
    }
    entries.assertOrdered();
    const want = [...model.values()].sort((a, b) => compareKeys(a.key, b.key));
    const got = [...entries.ascending()];
    expect(got.map((e) => e.key), `seed ${seed}`).toEqual(want.map((m) => m.key));
    expect(got.map((e) => [...e.ids].sort()), `seed ${seed}`).toEqual(want.map((m) => [...m.ids].sort()));
    expect([...entries.descending()].map((e) => e.key)).toEqual(want.map((m) => m.key).reverse());
    expect(entries.size).toBe(want.length);
    // Walks from a point, both ways.
    const from: IndexKey = [1500n];
    expect([...entries.ascending(from)].map((e) => e.key)).toEqual(want.filter((m) => compareKeys(m.key, from) >= 0).map((m) => m.key));
    expect([...entries.ascending(from, true)].map((e) => e.key)).toEqual(want.filter((m) => compareKeys(m.key, from) > 0).map((m) => m.key));
    expect([...entries.descending(from)].map((e) => e.key)).toEqual(want.filter((m) => compareKeys(m.key, from) <= 0).map((m) => m.key).reverse());
    expect([...entries.descending(from, true)].map((e) => e.key)).toEqual(want.filter((m) => compareKeys(m.key, from) < 0).map((m) => m.key).reverse());
    for (const m of want.slice(0, 50)) expect(entries.get(m.key)?.key).toEqual(m.key);
  });
});
