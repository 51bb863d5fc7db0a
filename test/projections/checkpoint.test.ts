import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { StateMachine } from '../../src/projections/state-machine.js';

describe('checkpoints', () => {
  it('hold committed state only: a pending write and the operation it settles are left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-ckpt-'));
    try {
      const sm = new StateMachine();
      const issuer = new Uint8Array(16).fill(3);
      sm.apply({ index: 1, term: 1, commit_ts: 10, event: { kind: 'deployment_formed', deployment: new Uint8Array(16), engine_format: 1 } }, true);
      sm.apply({ index: 2, term: 1, commit_ts: 11, event: { kind: 'issuer_enrolled', issuer, incarnation: 1 } }, true);
      const claim = { issuer, incarnation: 1, sequence: 1 };
      sm.apply({ index: 3, term: 1, commit_ts: 12, event: { kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: ['A'], props: [] }] } }, true);
      // Pending: applied by the proposer, not yet committed.
      sm.apply({ index: 4, term: 1, commit_ts: 13, event: { kind: 'graph_write', operation: claim, ops: [{ op: 'create_node', id: 2, labels: ['B'], props: [] }] } }, false);
      expect(sm.operations.check(claim)?.kind).toBe('settled');
      writeCheckpoint(dir, sm);
      const back = loadCheckpoint(dir);
      expect(back.committedIndex).toBe(3);
      expect(back.operations.check(claim)).toBeUndefined();
      expect(back.committedView().node(1)?.labels).toEqual(['A']);
      expect(back.committedView().node(2)).toBeUndefined();
      expect(back.clock.tsOf(3)).toBe(12);
      expect(back.clock.tsOf(4)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
