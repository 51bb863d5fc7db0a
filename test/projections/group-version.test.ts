import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { StateMachine } from '../../src/projections/state-machine.js';

const formed: Entry = { index: 1, term: 1, commit_ts: 10, event: { kind: 'deployment_formed', deployment: new Uint8Array(16), engine_format: 1 } };
const moved: Entry = { index: 2, term: 2, commit_ts: 20, event: { kind: 'group_version', engine_format: 2, host_epoch: 0, seq: 2 } };

const versionOf = (sm: StateMachine): [number, number, number] => [sm.engineFormat, sm.groupHostEpoch, sm.groupVersionSeq];

describe('the group version in the log (SPEC 9.4)', () => {
  it('the deployment is record 1; a group_version entry moves the group to its pair', () => {
    const sm = new StateMachine();
    expect(versionOf(sm)).toEqual([0, 0, 0]);
    sm.apply(formed, true);
    expect(versionOf(sm)).toEqual([1, 0, 1]);
    sm.apply(moved, true);
    expect(versionOf(sm)).toEqual([2, 0, 2]);
  });

  it('a pending record undone by a lost leadership restores the version before it', () => {
    const sm = new StateMachine();
    sm.apply(formed, true);
    sm.apply(moved, false);
    expect(versionOf(sm)).toEqual([2, 0, 2]);
    sm.rollbackAfter(1);
    expect(versionOf(sm)).toEqual([1, 0, 1]);
  });

  it('a checkpoint keeps the last record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-gv-'));
    try {
      const sm = new StateMachine();
      sm.apply(formed, true);
      sm.apply(moved, true);
      writeCheckpoint(dir, sm);
      expect(versionOf(loadCheckpoint(dir))).toEqual([2, 0, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
