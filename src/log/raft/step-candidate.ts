import { NONE } from './types.js';
import type { Raft } from './raft.js';
import type { Message } from './types.js';
import { handleAppend, handleHeartbeat, handleSnapshot } from './step-follower.js';

/** A (pre-)candidate's handling of messages of its own term. */
export function stepCandidate(r: Raft, m: Message): void {
  switch (m.type) {
    case 'app':
      // A leader exists in this term: follow it.
      r.becomeFollower(m.term, m.from);
      handleAppend(r, m);
      return;
    case 'heartbeat':
      r.becomeFollower(m.term, m.from);
      handleHeartbeat(r, m);
      return;
    case 'snap':
      r.becomeFollower(m.term, m.from);
      handleSnapshot(r, m);
      return;
    case 'vote_resp':
    case 'pre_vote_resp': {
      // Only answers to the kind of election under way count.
      const mine = r.role === 'pre_candidate' ? 'pre_vote_resp' : 'vote_resp';
      if (m.type !== mine) return;
      const result = r.poll(m.from, !m.reject);
      if (result === 'won') r.wonElection();
      else if (result === 'lost') r.becomeFollower(r.term, NONE);
      return;
    }
    case 'timeout_now':
    case 'app_resp':
    case 'heartbeat_resp':
    case 'vote':
    case 'pre_vote':
      return;
  }
}
