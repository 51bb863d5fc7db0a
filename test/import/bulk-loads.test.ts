import { describe, expect, it } from 'vitest';
import type { BulkLoad, Entry, Event } from '../../src/log/events.js';
import { bytesOf } from '../../src/projections/bulk/bulk-columns.js';
import { StateMachine } from '../../src/projections/state-machine.js';

/**
 * The bulk_load entry in the state machine: its parts apply together at the last one; an import
 * whose last part never came (its writer died) leaves nothing, whatever follows it in the log.
 */
function part(load: number, n: number, last: boolean, firstNode: number, nodes: number): BulkLoad {
  return {
    kind: 'bulk_load',
    load: new Uint8Array(16).fill(load),
    part: n,
    last,
    nodes: {
      first_id: firstNode,
      count: nodes,
      label_sets: [['P']],
      label_set_of: bytesOf(new Uint32Array(nodes)),
      columns: [{ key: 'k', values: Array.from({ length: nodes }, (_, i) => BigInt(firstNode + i)) }],
    },
    edges: {
      first_id: firstNode,
      count: nodes > 1 ? 1 : 0,
      types: ['E'],
      type_of: bytesOf(new Uint32Array(nodes > 1 ? 1 : 0)),
      sources: bytesOf(new Float64Array(nodes > 1 ? [firstNode] : [])),
      targets: bytesOf(new Float64Array(nodes > 1 ? [firstNode + 1] : [])),
      columns: [],
    },
  };
}

function feed(sm: StateMachine, events: readonly Event[]): void {
  for (const event of events) {
    const entry: Entry = { index: sm.appliedIndex + 1, term: 1, commit_ts: sm.appliedIndex + 1, event };
    sm.apply(entry, true);
  }
}

describe('bulk_load apply', () => {
  it('applies nothing until the last part, then every part at once', () => {
    const sm = new StateMachine();
    feed(sm, [part(1, 0, false, 1, 3)]);
    expect(sm.graph.stats().nodes).toBe(0);
    expect(sm.bulk.waiting).toBe(1);
    feed(sm, [part(1, 1, true, 4, 2)]);
    expect(sm.graph.stats()).toMatchObject({ nodes: 5, edges: 2 });
    expect(sm.bulk.waiting).toBe(0);
  });

  it('drops an import that another entry interrupted: a late last part finds no start and applies nothing', () => {
    const sm = new StateMachine();
    feed(sm, [part(1, 0, false, 1, 3), { kind: 'leader_noop' }, part(1, 1, true, 4, 2)]);
    expect(sm.graph.stats().nodes).toBe(0);
  });

  it('drops an import that a new import replaced, and applies the new one whole', () => {
    const sm = new StateMachine();
    feed(sm, [part(1, 0, false, 1, 3), part(2, 0, true, 1, 2)]);
    expect(sm.graph.stats()).toMatchObject({ nodes: 2, edges: 1 });
  });

  it('refuses an import whose edges name nodes that do not exist, and applies none of it', () => {
    const sm = new StateMachine();
    const bad = { ...part(1, 0, true, 1, 2), edges: { ...part(1, 0, true, 1, 2).edges, targets: bytesOf(new Float64Array([77])) } };
    const outcome = sm.apply({ index: 1, term: 1, commit_ts: 1, event: bad }, true);
    expect(outcome.status).toBe('refused');
    expect(sm.graph.stats().nodes).toBe(0);
  });
});
