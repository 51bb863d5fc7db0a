import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReader } from '../../src/server/import/csv-reader.js';
import { IntegerIds, integer_ids_dense_min } from '../../src/server/import/integer-ids.js';
import { TextIds, canonicalInteger } from '../../src/server/import/text-ids.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * ID spaces. Integer ids: dense ids in the direct table, the rest in the hash table, both answering
 * exactly what a Map would, whatever the mix. Text ids: matched as text, canonical decimal ones kept
 * as numbers, read from the bytes as the text would be read.
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

describe('text ID space', () => {
  it('matches ids as text: "17", "017", "+17" and " 17" are four ids; decimal and other text live side by side', () => {
    const ids = new TextIds();
    ['17', '017', '+17', ' 17', '0', 'abc', '', '1234567890123456', '-3'].forEach((t, i) => ids.set(t, i + 1));
    expect(['17', '017', '+17', ' 17', '0', 'abc', '', '1234567890123456', '-3'].map((t) => ids.get(t))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ids.get('18')).toBeUndefined();
    expect(ids.get('00')).toBeUndefined();
    expect(ids.getCanonical(17)).toBe(1);
    expect(ids.getCanonical(0)).toBe(5);
  });

  it('reads a field as a canonical integer from the bytes exactly when the text is one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-ids-'));
    try {
      const fields = ['0', '17', '017', '+1', ' 1', '1 ', '"42"', '"4""2"', '', '999999999999999', '1000000000000000', 'x1'];
      writeFileSync(join(dir, 'f.csv'), `${fields.join(',')}\n`);
      const reader = new CsvReader(join(dir, 'f.csv'), 0x2c);
      expect(reader.next()).toBe(true);
      for (let i = 0; i < fields.length; i++) {
        const fromText = canonicalInteger(reader.text(i));
        const fromBytes = reader.canonicalInteger(i);
        expect(Number.isNaN(fromBytes) ? 'text' : fromBytes, `field ${fields[i]}`).toEqual(Number.isNaN(fromText) ? 'text' : fromText);
      }
      expect([0, 1, 6, 9].map((i) => reader.canonicalInteger(i))).toEqual([0, 17, 42, 999999999999999]);
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
