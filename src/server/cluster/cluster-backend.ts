import type { ClusterBackend, GroupStatus, MemberHealth, MemberView } from '../../api/cluster-service.js';
import { failedPrecondition, unavailable } from '../../common/errors.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';
import type { Database } from '../database.js';
import type { ClientAddresses } from './client-addresses.js';
import { PROMOTE_LAG_ENTRIES, type MembershipAdmin } from './membership-admin.js';

/**
 * ClusterService on a member. The leader answers from its view of every member's log; a follower
 * asks the leader (a peer call) and answers from its own view when the leader cannot be reached.
 * A decommission of the leader itself moves leadership first, then asks the new leader to remove it.
 */
export interface ClusterBackendOptions {
  readonly transport: PeerTransport | undefined;
  /** Ticks without hearing from the leader after which a follower calls it DOWN. */
  readonly election_ticks: number;
  /** Bound on each peer call and on waiting for a leadership transfer. */
  readonly peer_call_timeout_ms: number;
  /** Where clients reach each member, reported beside its peer address. */
  readonly client_addresses: ClientAddresses;
}

const STATUS_METHOD = 'weft.cluster.status';
const REMOVE_METHOD = 'weft.cluster.remove';

export function clusterBackend(db: Database, admin: MembershipAdmin, options: ClusterBackendOptions): ClusterBackend {
  const log = db.log;
  const clients = options.client_addresses;
  const clientFields = (node_id: number): Pick<MemberView, 'grpc_address' | 'rest_address'> => {
    const a = clients.of(node_id);
    return { grpc_address: a.grpc, rest_address: a.rest };
  };
  /** A status names the client addresses each member announces now, asked for just before. */
  const refreshed = async <T>(status: () => T): Promise<T> => {
    await clients.refresh(log.membership.members.map((m) => m.node_id));
    return status();
  };
  const deploymentHex = (): string => (db.sm.deployment === undefined ? '' : Buffer.from(db.sm.deployment).toString('hex'));

  /** The leader's view: lag from each member's match index, health from whether it answered within an election timeout. */
  const leaderStatus = (): GroupStatus => {
    const membership = log.membership;
    const progress = log.progress();
    const members: MemberView[] = membership.members.map((m) => {
      const pr = progress.get(m.node_id);
      const lag = pr === undefined ? log.lastIndex : Math.max(0, log.lastIndex - pr.match);
      const self = m.node_id === log.nodeId;
      const state: MemberHealth = self ? 'HEALTHY' : pr === undefined || !pr.recent_active ? 'DOWN' : lag >= PROMOTE_LAG_ENTRIES ? 'DEGRADED' : 'HEALTHY';
      const role = self ? 'leader' : membership.conf_state.learners.includes(m.node_id) ? 'learner' : 'follower';
      return { node_id: m.node_id, address: m.address, identity: m.identity, role, state, lag_entries: lag, ...clientFields(m.node_id) };
    });
    return { members, leader_id: log.nodeId, term: log.term, deployment: deploymentHex() };
  };

  /** A follower's own view: itself (lag unknown to it: 0), and the leader by whether it hears from it. */
  const localStatus = (): GroupStatus => {
    const membership = log.membership;
    const heard = log.electionElapsedTicks < options.election_ticks;
    const members: MemberView[] = membership.members.map((m) => {
      const role = m.node_id === log.leaderId ? 'leader' : membership.conf_state.learners.includes(m.node_id) ? 'learner' : 'follower';
      const state: MemberHealth = m.node_id === log.nodeId ? (heard ? 'HEALTHY' : 'DEGRADED') : m.node_id === log.leaderId ? (heard ? 'HEALTHY' : 'DOWN') : 'DEGRADED';
      return { node_id: m.node_id, address: m.address, identity: m.identity, role, state, lag_entries: 0, ...clientFields(m.node_id) };
    });
    return { members, leader_id: log.leaderId, term: log.term, deployment: deploymentHex() };
  };

  const t = options.transport;
  t?.handle(STATUS_METHOD, async () => {
    if (!log.isLeader) throw log.notLeader();
    return Buffer.from(JSON.stringify(await refreshed(leaderStatus)));
  });
  t?.handle(REMOVE_METHOD, async (_from, payload) => {
    await admin.remove(Number(Buffer.from(payload).toString('utf8')));
    return new Uint8Array();
  });

  const waitForOtherLeader = async (): Promise<number> => {
    const deadline = Date.now() + options.peer_call_timeout_ms;
    while (Date.now() < deadline) {
      const lead = log.leaderId;
      if (lead !== 0 && lead !== log.nodeId) return lead;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw unavailable('leadership did not move within the timeout; the member was not removed', 'LEADER_TRANSFER_TIMEOUT');
  };

  return {
    async status() {
      if (log.isLeader) return refreshed(leaderStatus);
      const lead = log.leaderId;
      if (t !== undefined && lead !== 0) {
        try {
          const bytes = await t.call(lead, STATUS_METHOD, new Uint8Array(), options.peer_call_timeout_ms);
          const status = JSON.parse(Buffer.from(bytes).toString('utf8')) as GroupStatus;
          for (const m of status.members) clients.reported(m.node_id, { grpc: m.grpc_address, rest: m.rest_address });
          return status;
        } catch {
          // The leader is unreachable from here: answer what this member sees.
        }
      }
      return refreshed(localStatus);
    },

    join: (req) => {
      clients.named(req.node_id, { grpc: req.grpc_address, rest: req.rest_address });
      return admin.join(req);
    },
    joinProgress: (node_id) => admin.progress(node_id),
    watchJoins: (listener) => admin.watch(listener),
    remove: (node_id) => admin.remove(node_id),

    async decommission(req) {
      const voters = log.membership.conf_state.voters;
      if (!voters.includes(req.node_id)) {
        throw failedPrecondition(`member ${req.node_id} is not a voter of this group`, 'NOT_A_VOTER', { node_id: String(req.node_id) });
      }
      // The quorum gate: what remains must still tolerate nothing less than a pair of voters.
      if (!req.force && voters.length - 1 < 2) {
        throw failedPrecondition(`removing member ${req.node_id} would leave ${voters.length - 1} voter(s); at least 2 must remain`, 'QUORUM_GATE', {
          voters: String(voters.length),
        });
      }
      if (!log.isLeader) throw log.notLeader();
      if (req.node_id === log.nodeId) {
        // Leadership moves to the most caught-up voter first; the new leader removes this member.
        const progress = log.progress();
        const target = voters
          .filter((id) => id !== log.nodeId)
          .sort((a, b) => (progress.get(b)?.match ?? 0) - (progress.get(a)?.match ?? 0))[0]!;
        log.transferLeadership(target);
        const lead = await waitForOtherLeader();
        if (t === undefined) throw unavailable('this member has no peer transport to reach the new leader', 'NO_PEER_TRANSPORT');
        await t.call(lead, REMOVE_METHOD, Buffer.from(String(req.node_id)), options.peer_call_timeout_ms);
      } else {
        await admin.remove(req.node_id);
      }
      const cleanup = req.pruning;
      return {
        message: `member ${req.node_id} was removed from the group${cleanup ? '; delete its data directory by hand' : ''}`,
        operator_cleanup_required: cleanup,
      };
    },
  };
}
