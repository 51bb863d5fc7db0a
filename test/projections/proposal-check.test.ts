import { describe, expect, it } from 'vitest';
import type { Entry, GraphOp, GraphWrite } from '../../src/log/events.js';
import { StateMachine } from '../../src/projections/state-machine.js';

/**
 * The leader checks a graph write once, before proposing it, and hands that check to the apply of
 * the entry it proposed (CheckedWrite): the state it reaches is the state a follower reaches by
 * checking at apply, and a check made before another entry applied is never taken for a later one.
 */
const node = (id: number, name: string): GraphOp => ({ op: 'create_node', id, labels: ['Person'], props: [['name', name]] });
const write = (...ops: GraphOp[]): GraphWrite => ({ kind: 'graph_write', ops });
const entry = (index: number, event: GraphWrite): Entry => ({ index, term: 1, commit_ts: 1000 + index, event });

function names(sm: StateMachine): unknown[] {
  const view = sm.latestView();
  return [1, 2, 3].map((id) => view.node(id)?.props.get('name'));
}

describe('a proposal checked once', () => {
  it('a leader applying its own checked writes reaches the state a follower reaches by checking each at apply', () => {
    const leader = new StateMachine();
    const follower = new StateMachine();
    const writes = [write(node(1, 'Ada')), write(node(2, 'Bob'), node(3, 'Cy'))];
    writes.forEach((event, i) => {
      const check = leader.checkProposal(event);
      expect(check.status).toBe('passed');
      const e = entry(i + 1, event);
      expect(leader.apply(e, false, check.status === 'passed' ? check.checked : undefined).status).toBe('applied');
      expect(follower.apply(e, true).status).toBe('applied');
    });
    expect(names(leader)).toEqual(['Ada', 'Bob', 'Cy']);
    expect(names(follower)).toEqual(names(leader));
  });

  it('a write the check refuses is refused with the reason check() gives, and nothing is kept for an apply', () => {
    const sm = new StateMachine();
    sm.apply(entry(1, write(node(1, 'Ada'))), true);
    // An edge to a node that does not exist.
    const again = write({ op: 'create_edge', id: 1, type: 'KNOWS', source: 1, target: 9, props: [] });
    const check = sm.checkProposal(again);
    expect(check).toEqual({ status: 'refused', refusal: sm.check(again) });
    expect(check.status === 'refused' && check.refusal.code).toBe('NOT_FOUND');
  });

  it('a check made before another entry applied is refused by the apply of a later entry (a bug, not a refusal)', () => {
    const sm = new StateMachine();
    const first = write(node(1, 'Ada'));
    const check = sm.checkProposal(first);
    if (check.status !== 'passed') throw new Error('the first write must pass');
    sm.apply(entry(1, write(node(2, 'Bob'))), false);
    expect(() => sm.apply(entry(2, first), false, check.checked)).toThrow(/check made after 0/);
    // The check of another write is not taken for this one either.
    const other = sm.checkProposal(write(node(3, 'Cy')));
    if (other.status !== 'passed') throw new Error('the other write must pass');
    const fresh = new StateMachine();
    expect(() => fresh.apply(entry(1, first), false, other.checked)).toThrow(/handed to the apply of entry 1/);
  });
});
