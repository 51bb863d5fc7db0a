import { describe, expect, it } from 'vitest';
import type { Entry, Event, GraphOp } from '../../src/log/events.js';
import { StateMachine } from '../../src/projections/state-machine.js';

/**
 * A graph write in parts (GraphWritePart): held by every member until its commit part, which checks and
 * applies all its ops at its own index, in steps. These scenarios compare it with the same ops as one
 * graph_write entry, and check what readers see, what a new term and a rollback do, and a refusal.
 */
class Log {
  readonly sm = new StateMachine();
  private index = 0;
  private nodesBefore = 0;

  constructor(private readonly committed: boolean) {}

  append(event: Event): Entry {
    this.index++;
    const entry: Entry = { index: this.index, term: 1, commit_ts: 1000 + this.index, event };
    const outcome = this.sm.apply(entry, this.committed);
    expect(outcome.index).toBe(this.index);
    return entry;
  }

  /** The ops as parts of `size`, with `between` appended after the first part; answers the commit's outcome. */
  inParts(ops: readonly GraphOp[], size: number, between: Event[] = []): ReturnType<StateMachine['apply']> {
    let first = 0;
    const parts = Math.ceil(ops.length / size);
    for (let part = 0; part < parts - 1; part++) {
      const entry = this.append({ kind: 'graph_write_part', first, part, ops: ops.slice(part * size, (part + 1) * size) });
      if (part === 0) first = entry.index;
      if (part === 0) for (const e of between) this.append(e);
    }
    this.nodesBefore = nodeCount(this.sm, this.index);
    this.index++;
    const commit: Entry = {
      index: this.index,
      term: 1,
      commit_ts: 1000 + this.index,
      event: { kind: 'graph_write_part', first, part: parts - 1, ops: ops.slice((parts - 1) * size), end: 'commit' },
    };
    // The leader's way: in steps, each one a chance to give the event loop back.
    const steps = this.sm.applyInSteps(commit, this.committed);
    let count = 0;
    for (;;) {
      const r = steps.next();
      if (r.done === true) {
        if (r.value.status === 'applied') expect(count).toBeGreaterThan(0);
        return r.value;
      }
      count++;
      // Mid-commit, a reader below the commit's index sees none of the write.
      expect(nodeCount(this.sm, commit.index - 1)).toBe(this.nodesBefore);
    }
  }
}

function nodeCount(sm: StateMachine, index: number): number {
  return [...sm.viewAt(index).nodes()].length;
}

function shape(sm: StateMachine): unknown {
  const g = sm.graph;
  const nodes = [...g.nodeRecords()].map((r) => [r.id, r.head.labels, [...r.head.props], r.out.map((e) => e.id), r.in.map((e) => e.id), r.head.deleted]);
  const edges = [...g.edgeRecords()].map((r) => [r.id, r.type, r.source.id, r.target.id, [...r.head.props]]);
  return { nodes, edges, stats: g.stats() };
}

/** `n` nodes and a chain of edges between them, ids from 1. */
function chain(n: number): GraphOp[] {
  const ops: GraphOp[] = [];
  for (let id = 1; id <= n; id++) ops.push({ op: 'create_node', id, labels: id % 2 === 0 ? ['A', 'B'] : ['A'], props: [['i', BigInt(id)]] });
  for (let id = 1; id < n; id++) ops.push({ op: 'create_edge', id, type: 'NEXT', source: id, target: id + 1, props: [['w', id]] });
  return ops;
}

describe('graph writes in parts', () => {
  it('a write of 9,999 ops in parts of 1,000, applied on a follower, gives the graph one entry gives', () => {
    const ops = chain(5_000);
    const whole = new Log(true);
    whole.append({ kind: 'graph_write', ops });
    const parted = new Log(true);
    const outcome = parted.inParts(ops, 1_000);
    expect(outcome.status).toBe('applied');
    expect(shape(parted.sm)).toEqual(shape(whole.sm));
    expect(parted.sm.writeParts.size).toBe(0);
  });

  it('the leader: readers see none of it until its commit part commits, then all of it at that index', () => {
    const leader = new Log(false);
    const outcome = leader.inParts(chain(3_000), 700);
    expect(outcome.status).toBe('applied');
    const commitIndex = outcome.index;
    expect(nodeCount(leader.sm, commitIndex - 1)).toBe(0);
    expect([...leader.sm.committedView().nodesWithLabel('A')]).toHaveLength(0);
    leader.sm.commit(commitIndex);
    expect([...leader.sm.committedView().nodesWithLabel('A')]).toHaveLength(3_000);
    expect([...leader.sm.committedView().edgesOfType('NEXT')]).toHaveLength(2_999);
  });

  it('another write between its parts applies first; the write in parts still applies whole after it', () => {
    const log = new Log(true);
    const other: Event = { kind: 'graph_write', ops: [{ op: 'create_node', id: 9_000, labels: ['Other'], props: [] }] };
    const outcome = log.inParts(chain(2_000), 500, [other]);
    expect(outcome.status).toBe('applied');
    expect(nodeCount(log.sm, outcome.index - 1)).toBe(1);
    expect(nodeCount(log.sm, outcome.index)).toBe(2_001);
  });

  it('a new term between its parts drops it: its commit part is refused and applies nothing', () => {
    const log = new Log(true);
    const outcome = log.inParts(chain(2_000), 500, [{ kind: 'leader_noop' }]);
    expect(outcome.status).toBe('refused');
    expect(nodeCount(log.sm, outcome.index)).toBe(0);
    expect(log.sm.writeParts.size).toBe(0);
  });

  it('a refusal in a later step undoes the steps applied before it, on the leader and on a follower', () => {
    for (const committed of [false, true]) {
      const log = new Log(committed);
      log.append({ kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: ['Kept'], props: [] }] });
      if (!committed) log.sm.commit(1);
      const before = shape(log.sm);
      const ops: GraphOp[] = [];
      for (let id = 2; id <= 6_000; id++) ops.push({ op: 'create_node', id, labels: ['New'], props: [] });
      // The last op names a node that does not exist: the whole write is refused, in its last step.
      ops.push({ op: 'update_node', id: 99_999, add_labels: ['X'], remove_labels: [], set: [], replace: false });
      const outcome = log.inParts(ops, 2_500);
      expect(outcome.status, `committed ${committed}`).toBe('refused');
      expect(shape(log.sm), `committed ${committed}`).toEqual(before);
      expect([...log.sm.viewAt(Number.POSITIVE_INFINITY).nodesWithLabel('New')]).toHaveLength(0);
    }
  });

  it('a lost lead undoes pending parts; an abandoned write leaves nothing open', () => {
    const log = new Log(false);
    const first = log.append({ kind: 'graph_write_part', first: 0, part: 0, ops: chain(10).slice(0, 10) });
    log.append({ kind: 'graph_write_part', first: first.index, part: 1, ops: [] });
    log.sm.rollbackAfter(first.index);
    expect(log.sm.writeParts.size).toBe(1);
    log.sm.rollbackAfter(first.index - 1);
    // Rolled back below its first part: nothing of it is held.
    expect(log.sm.writeParts.size).toBe(0);

    const again = new Log(true);
    const start = again.append({ kind: 'graph_write_part', first: 0, part: 0, ops: chain(10).slice(0, 10) });
    again.append({ kind: 'graph_write_part', first: start.index, part: 1, ops: [], end: 'abandon' });
    expect(again.sm.writeParts.size).toBe(0);
    expect(nodeCount(again.sm, 2)).toBe(0);
  });
});
