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
 * Writes a new cluster's first entries: one committed add_voter per initial member at term 1.
 * Every initial member bootstraps with the same list; a member joining later starts empty and gets
 * these entries (or a snapshot) from the leader, so it learns the membership the same way.
 */
export function bootstrap(storage: BootstrapTarget, voters: readonly NodeId[]): void {
  assert(storage.lastIndex() === 0, 'bootstrap needs an empty log');
  assert(voters.length > 0, 'bootstrap needs at least one voter');
  const sorted = [...voters].sort((a, b) => a - b);
  const entries: Entry[] = sorted.map((node, k) => ({ index: k + 1, term: 1, type: 'conf_change', data: encodeConfChange({ kind: 'add_voter', node }) }));
  storage.append(entries);
  storage.setInitialConfState({ voters: sorted, learners: [] });
  storage.setHardState({ term: 1, vote: 0, commit: entries.length });
}
