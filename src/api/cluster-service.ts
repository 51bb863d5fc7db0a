import { invalidArgument, unimplemented } from '../common/errors.js';
import { ClusterService, JoinPhase, NodeRole, NodeState } from '../gen/weft/v1/cluster_pb.js';
import { implement, type RegisteredService } from './handlers.js';

/**
 * ClusterService (SPEC 4.5): the group's status, growing it (JoinNode, JoinProgress) and shrinking
 * it (RemoveNode, DecommissionNode). The member's driver and membership admin answer through the
 * backend; this file only maps them to the wire.
 */
export type MemberRole = 'leader' | 'follower' | 'learner';
export type MemberHealth = 'HEALTHY' | 'DEGRADED' | 'DOWN';
export type JoinPhaseName = 'LEARNER' | 'READY_CHECK' | 'PROMOTING' | 'COMPLETE' | 'FAILED';

export interface MemberView {
  readonly node_id: number;
  readonly address: string;
  readonly identity: string;
  readonly role: MemberRole;
  readonly state: MemberHealth;
  readonly lag_entries: number;
  /** host:port of the member's gRPC and REST APIs as it announced them; '' when not known. */
  readonly grpc_address: string;
  readonly rest_address: string;
}

export interface GroupStatus {
  readonly members: readonly MemberView[];
  /** 0 when no leader is known. */
  readonly leader_id: number;
  readonly term: number;
  /** 32 hex digits; empty before this member joined a group. */
  readonly deployment: string;
}

export interface JoinView {
  readonly node_id: number;
  readonly phase: JoinPhaseName;
  readonly lag_entries: number;
  readonly message: string;
}

export interface ClusterBackend {
  status(): Promise<GroupStatus>;
  join(req: { node_id: number; address: string; identity: string; pre_seeded: boolean; grpc_address: string; rest_address: string }): Promise<void>;
  /** The join under way for `node_id`; NOT_FOUND when none was started or it completed. */
  joinProgress(node_id: number): JoinView;
  /** Calls `listener` at every phase change and lag poll; returns the unsubscribe. */
  watchJoins(listener: (view: JoinView) => void): () => void;
  remove(node_id: number): Promise<void>;
  decommission(req: { node_id: number; pruning: boolean; force: boolean; skip_confirmation: boolean }): Promise<{ message: string; operator_cleanup_required: boolean }>;
}

/** JoinProgress sends a status at least this often while the lag is polled (SPEC 4.5 rule 2). */
export const join_progress_poll_ms = 500;

const roles: Record<MemberRole, NodeRole> = { leader: NodeRole.LEADER, follower: NodeRole.FOLLOWER, learner: NodeRole.LEARNER };
const states: Record<MemberHealth, NodeState> = { HEALTHY: NodeState.HEALTHY, DEGRADED: NodeState.DEGRADED, DOWN: NodeState.DOWN };
const phases: Record<JoinPhaseName, JoinPhase> = {
  LEARNER: JoinPhase.LEARNER,
  READY_CHECK: JoinPhase.READY_CHECK,
  PROMOTING: JoinPhase.PROMOTING,
  COMPLETE: JoinPhase.COMPLETE,
  FAILED: JoinPhase.FAILED,
};

function nodeIdOf(value: bigint | string, field: string): number {
  const n = typeof value === 'bigint' ? Number(value) : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw invalidArgument(`${field} must be a positive integer, got '${String(value)}'`);
  return n;
}

function joinStatus(v: JoinView): { nodeId: bigint; phase: JoinPhase; lagEntries: bigint; percent: number; message: string } {
  const percent = v.phase === 'COMPLETE' ? 100 : v.phase === 'PROMOTING' || v.phase === 'READY_CHECK' ? 90 : Math.max(0, Math.min(89, 89 - Math.floor(v.lag_entries / 100)));
  return { nodeId: BigInt(v.node_id), phase: phases[v.phase], lagEntries: BigInt(v.lag_entries), percent, message: v.message };
}

export function clusterService(backend: ClusterBackend): RegisteredService {
  return implement(ClusterService, {
    async getClusterStatus() {
      const s = await backend.status();
      return {
        nodes: s.members.map((m) => ({
          nodeId: String(m.node_id),
          address: m.address,
          role: roles[m.role],
          state: states[m.state],
          lagEntries: BigInt(m.lag_entries),
          nodeIdentity: m.identity,
          grpcAddress: m.grpc_address,
          restAddress: m.rest_address,
        })),
        leaderId: s.leader_id === 0 ? '' : String(s.leader_id),
        raftTerm: BigInt(s.term),
        deployment: s.deployment,
      };
    },

    async joinNode(req) {
      const node_id = nodeIdOf(req.nodeId, 'node_id');
      await backend.join({
        node_id,
        address: req.address,
        identity: req.nodeIdentity,
        pre_seeded: req.preSeeded,
        grpc_address: req.grpcAddress,
        rest_address: req.restAddress,
      });
      return { nodeId: BigInt(node_id), status: 'JOIN_INITIATED' };
    },

    async *joinProgress(req, ctx) {
      const node_id = nodeIdOf(req.nodeId, 'node_id');
      let current = backend.joinProgress(node_id);
      // Changes arrive from the monitor; a poll every 500 ms sends the lag even when nothing changed.
      let wake: (() => void) | undefined;
      const unsubscribe = backend.watchJoins((v) => {
        if (v.node_id !== node_id) return;
        current = v;
        wake?.();
      });
      try {
        yield joinStatus(current);
        while (!ctx.signal.aborted && current.phase !== 'COMPLETE' && current.phase !== 'FAILED') {
          const before = current;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, join_progress_poll_ms);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            ctx.signal.addEventListener('abort', () => wake?.(), { once: true });
          });
          wake = undefined;
          if (current === before) {
            try {
              current = backend.joinProgress(node_id);
            } catch {
              // Completed between two polls: the last status the monitor sent is the final one.
            }
          }
          yield joinStatus(current);
        }
      } finally {
        unsubscribe();
      }
    },

    async addNode() {
      throw unimplemented('AddNode is deprecated; use JoinNode');
    },

    async removeNode(req) {
      await backend.remove(nodeIdOf(req.nodeId, 'node_id'));
      return {};
    },

    async decommissionNode(req) {
      const node_id = nodeIdOf(req.nodeId, 'node_id');
      if (req.force && !req.skipConfirmation) throw invalidArgument('force requires skip_confirmation: a forced removal may lose data permanently');
      const out = await backend.decommission({ node_id, pruning: req.pruning, force: req.force, skip_confirmation: req.skipConfirmation });
      return { nodeId: BigInt(node_id), message: out.message, operatorCleanupRequired: out.operator_cleanup_required };
    },
  });
}
