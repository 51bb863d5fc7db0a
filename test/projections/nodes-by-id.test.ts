import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import type { GraphOp } from '../../src/log/events.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import type { NodeState } from '../../src/projections/graph/records.js';

/**
 * A snapshot's lookup of many nodes at once (what a vector search does with its hits) answers what
 * one lookup per id answers: the version visible at the snapshot, none for a node created after it,
 * deleted at or before it, or never there.
 */
const create = (id: number, props: Record<string, PropertyValue>): GraphOp => ({ op: 'create_node', id, labels: ['P'], props: Object.entries(props) });
const set = (id: number, k: bigint): GraphOp => ({ op: 'update_node', id, add_labels: [], remove_labels: [], set: [['k', k]], replace: false });

describe('SnapshotView.nodesById', () => {
  it('answers each id as node(id) does, at every snapshot of a history of writes', () => {
    const sm = new StateMachine();
    let index = 0;
    const write = (ops: GraphOp[]): void => {
      index++;
      expect(sm.apply({ index, term: 1, commit_ts: 1000 + index, event: { kind: 'graph_write', ops } }, true).status).toBe('applied');
    };
    write([create(1, { k: 1n }), create(2, { k: 2n }), create(3, { k: 3n })]);
    write([set(1, 10n), create(4, { k: 4n })]);
    write([{ op: 'delete_node', id: 2 }, set(1, 100n)]);
    write([set(3, 30n)]);
    const ids = [4, 1, 2, 3, 99, 0, -1, 1];
    for (let at = 0; at <= index; at++) {
      const view = sm.viewAt(at);
      const out: (NodeState | undefined)[] = [];
      view.nodesById(ids, out);
      expect(out, `snapshot at ${at}`).toEqual(ids.map((id) => view.node(id)));
    }
    const latest: (NodeState | undefined)[] = [];
    sm.viewAt(index).nodesById([1, 2, 3], latest);
    expect(latest.map((n) => n?.props.get('k'))).toEqual([100n, undefined, 30n]);
  });
});
