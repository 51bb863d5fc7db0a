import type { NodeId } from '../../src/log/raft/index.js';

/**
 * State convergence: applying the same committed prefix must give every member the same state, so
 * two members that have applied up to one index hold equal key-value maps. This catches a state
 * machine that skipped or mangled what it applied (a snapshot installed without its data, say) even
 * when no client happens to read the difference.
 */
export class StateChecker {
  readonly violations: string[] = [];
  /** The state some member held with applied index i, by the first member seen there. */
  private readonly states = new Map<number, { id: NodeId; digest: string }>();

  onState(now: number, id: NodeId, applied_index: number, kv: ReadonlyMap<string, string>): void {
    const digest = JSON.stringify([...kv].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const first = this.states.get(applied_index);
    if (first === undefined) this.states.set(applied_index, { id, digest });
    else if (first.digest !== digest && this.violations.length < 20) {
      this.violations.push(`tick ${now}: state convergence: ${first.id} and ${id} hold different states at applied index ${applied_index}`);
    }
  }
}
