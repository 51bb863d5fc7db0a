import type { Entry, NodeId, RawNode } from '../../src/log/raft/index.js';

/**
 * Raft's safety properties (paper §5.2-5.4), checked as the run goes:
 * - election safety: at most one leader per term;
 * - leader completeness: a new leader's log holds every entry known committed;
 * - state machine safety: no two members apply different entries at one index;
 * - log matching: if two logs hold an entry with the same index and term, they agree up to it.
 * Violations are collected, not thrown, so a run reports them all with its seed.
 */
export class SafetyChecker {
  readonly violations: string[] = [];
  private readonly leaders = new Map<number, NodeId>();
  /** The entry applied at each index, by whoever applied it first. Applying proves it committed. */
  private readonly committed = new Map<number, Entry>();
  private committed_max = 0;

  private fail(now: number, what: string): void {
    if (this.violations.length < 20) this.violations.push(`tick ${now}: ${what}`);
  }

  onLeader(now: number, id: NodeId, term: number, node: RawNode): void {
    const other = this.leaders.get(term);
    if (other !== undefined && other !== id) this.fail(now, `election safety: ${other} and ${id} both lead term ${term}`);
    this.leaders.set(term, id);
    const log = node.raft.log;
    if (log.lastIndex() < this.committed_max) {
      this.fail(now, `leader completeness: ${id} leads term ${term} with last index ${log.lastIndex()} < committed ${this.committed_max}`);
      return;
    }
    for (let i = log.firstIndex(); i <= this.committed_max; i++) {
      const e = this.committed.get(i);
      if (e && log.term(i) !== e.term) {
        this.fail(now, `leader completeness: ${id} leads term ${term} with term ${log.term(i)} at ${i}, committed ${e.term}`);
        return;
      }
    }
  }

  onApply(now: number, id: NodeId, e: Entry): void {
    const prior = this.committed.get(e.index);
    if (prior === undefined) {
      this.committed.set(e.index, e);
      this.committed_max = Math.max(this.committed_max, e.index);
    } else if (!sameEntry(prior, e)) {
      this.fail(now, `state machine safety: ${id} applied ${e.term}/${e.index}, another member applied ${prior.term}/${e.index}`);
    }
  }

  /** Pairwise log matching over the members' current logs (stored and unstable). */
  checkLogMatching(now: number, nodes: readonly { id: NodeId; node: RawNode }[]): void {
    for (let a = 0; a < nodes.length; a++) {
      for (let b = a + 1; b < nodes.length; b++) {
        const la = nodes[a]!.node.raft.log;
        const lb = nodes[b]!.node.raft.log;
        const lo = Math.max(la.firstIndex(), lb.firstIndex());
        let hi = Math.min(la.lastIndex(), lb.lastIndex());
        while (hi >= lo && la.term(hi) !== lb.term(hi)) hi--;
        if (hi < lo) continue;
        const ea = la.slice(lo, hi + 1, Number.MAX_SAFE_INTEGER) ?? [];
        const eb = lb.slice(lo, hi + 1, Number.MAX_SAFE_INTEGER) ?? [];
        for (let k = 0; k < ea.length; k++) {
          if (!sameEntry(ea[k]!, eb[k]!)) {
            this.fail(now, `log matching: ${nodes[a]!.id} and ${nodes[b]!.id} agree at ${hi} but differ at ${ea[k]!.index}`);
            break;
          }
        }
      }
    }
  }
}

function sameEntry(a: Entry, b: Entry): boolean {
  if (a.index !== b.index || a.term !== b.term || a.type !== b.type || a.data.byteLength !== b.data.byteLength) return false;
  for (let i = 0; i < a.data.byteLength; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}
