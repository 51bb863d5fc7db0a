import type { MembershipChanged } from '../events.js';
import type { ConfState, NodeId } from '../raft/types.js';
import type { MemberRecord, MembershipSnapshot } from './membership.js';

/**
 * The directory of members as the applied log defines it: each member's address and identity, and
 * the identities that left. Updated only by committed membership entries (and snapshots), so every
 * member holds the same directory at the same index.
 */
export class MembershipDirectory {
  private readonly byId = new Map<NodeId, MemberRecord>();
  private readonly departed = new Set<string>();

  constructor(initial: MembershipSnapshot) {
    this.reset(initial);
  }

  reset(s: MembershipSnapshot): void {
    this.byId.clear();
    this.departed.clear();
    for (const m of s.members) this.byId.set(m.node_id, m);
    for (const id of s.departed) this.departed.add(id);
  }

  apply(e: MembershipChanged): void {
    switch (e.change) {
      case 'add_voter':
      case 'add_learner': {
        const known = this.byId.get(e.node_id);
        // A promotion names no address: the one recorded when the member joined stays.
        if (known === undefined || e.address !== '') this.byId.set(e.node_id, { node_id: e.node_id, address: e.address, identity: e.identity });
        return;
      }
      case 'remove': {
        const known = this.byId.get(e.node_id);
        if (known !== undefined && known.identity !== '') this.departed.add(known.identity);
        this.byId.delete(e.node_id);
        return;
      }
    }
  }

  /** Drops records of ids the core no longer counts as members. */
  retain(cs: ConfState): void {
    for (const id of [...this.byId.keys()]) if (!cs.voters.includes(id) && !cs.learners.includes(id)) this.byId.delete(id);
  }

  get(id: NodeId): MemberRecord | undefined {
    return this.byId.get(id);
  }

  records(): MemberRecord[] {
    return [...this.byId.values()].sort((a, b) => a.node_id - b.node_id);
  }

  hasDeparted(identity: string): boolean {
    return identity !== '' && this.departed.has(identity);
  }

  /** The member bound to `identity`, if any. */
  byIdentity(identity: string): MemberRecord | undefined {
    if (identity === '') return undefined;
    for (const m of this.byId.values()) if (m.identity === identity) return m;
    return undefined;
  }

  snapshot(cs: ConfState): MembershipSnapshot {
    return { conf_state: cs, members: this.records(), departed: [...this.departed].sort() };
  }
}
