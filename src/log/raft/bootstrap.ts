import { assert } from '../../common/assert.js';
import { encodeConfChange } from './conf-change.js';
import type { ConfState, Entry, HardState, NodeId } from './types.js';

/** The writes a bootstrap needs from a storage (MemoryStorage has them; a disk storage must too). */
export interface BootstrapTarget {
  lastIndex(): number;
  append(entries: readonly Entry[]): void;
  setHardState(hs: HardState): void;
  setInitialConfState(cs: ConfState): void;
}

/**
 * Writes a new cluster's first entries: one committed add_voter (or add_learner) per initial member at term 1.
 * Every initial member bootstraps with the same list; a member joining later starts empty and gets
 * these entries (or a snapshot) from the leader, so it learns the membership the same way.
 */
export function bootstrap(storage: BootstrapTarget, voters: readonly NodeId[], learners: readonly NodeId[] = []): void {
  assert(storage.lastIndex() === 0, 'bootstrap needs an empty log');
  assert(voters.length > 0, 'bootstrap needs at least one voter');
  assert(!learners.some((id) => voters.includes(id)), 'a member is either a voter or a learner');
  const v = [...voters].sort((a, b) => a - b);
  const l = [...learners].sort((a, b) => a - b);
  const changes = [...v.map((node) => ({ kind: 'add_voter' as const, node })), ...l.map((node) => ({ kind: 'add_learner' as const, node }))];
  const entries: Entry[] = changes.map((cc, k) => ({ index: k + 1, term: 1, type: 'conf_change', data: encodeConfChange(cc) }));
  storage.append(entries);
  storage.setInitialConfState({ voters: v, learners: l });
  storage.setHardState({ term: 1, vote: 0, commit: entries.length });
}
