import { describe, expect, it } from 'vitest';
import { WRITE_ENTRY_BYTES } from '../../../src/query/execute/write-ops.js';
import { failure } from '../../support/failure.js';
import { withDb } from './support.js';

const MiB = 1024 * 1024;

describe('write-set limit: a write that would hold more than write_set_limit fails whole, whatever its memory limit', () => {
  it('a streamed CREATE of a hundred million nodes stops at the limit with RESOURCE_EXHAUSTED / EXCEEDS_WRITE_SET_LIMIT and applies nothing', async () => {
    await withDb(
      async (db) => {
        const e = await failure(db.query('UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b CREATE (:X {v: a * 10000 + b})'));
        expect(e.code).toBe('RESOURCE_EXHAUSTED');
        expect(e.reason).toBe('EXCEEDS_WRITE_SET_LIMIT');
        expect(e.metadata).toEqual({ limit_mb: '1' });
        expect((await db.query('MATCH (x:X) RETURN count(x)')).rows).toEqual([[0n]]);
        // Exactly as many entities as fit are written.
        const fit = Math.floor(MiB / WRITE_ENTRY_BYTES);
        await db.query('UNWIND range(1, $n) AS x CREATE (:Fits {v: x})', { n: BigInt(fit) });
        expect((await db.query('MATCH (x:Fits) RETURN count(x)')).rows).toEqual([[BigInt(fit)]]);
        expect((await failure(db.query('UNWIND range(1, $n) AS x CREATE (:Over {v: x})', { n: BigInt(fit + 1) }))).reason).toBe('EXCEEDS_WRITE_SET_LIMIT');
      },
      // A memory limit far above the write-set limit: the write set has its own bound.
      { memory_limit_bytes: 1024 * MiB, write_set_limit_bytes: MiB },
    );
  });

  it('setting one node a hundred thousand times holds one entry and stays within the limit', async () => {
    await withDb(
      async (db) => {
        await db.query('UNWIND range(1, 100) AS a UNWIND range(1, 1000) AS b MERGE (m:Counter) SET m.v = a * 1000 + b');
        expect((await db.query('MATCH (m:Counter) RETURN count(m), m.v')).rows).toEqual([[1n, 101000n]]);
      },
      { write_set_limit_bytes: MiB },
    );
  });
});
