/**
 * The members a client knows and which one it sends to. A member that has a leader takes every call
 * (a follower forwards writes and PRIMARY reads to the leader, docs/cluster.md); the leader's id and
 * term are learned from GetClusterStatus and from NOT_LEADER metadata. After UNAVAILABLE the route
 * is stale and the next call asks the members again, starting with the one after the member that
 * failed, so a dead member is passed over. When the status names the leader's own gRPC address
 * (the address it announces, docs/cluster.md), calls go to the leader directly, with no forwarding
 * hop, and follow it to the next leader after a failover; a leader address the client cannot reach
 * is passed over for the member that named it.
 */
import type { ClientHttp2Engine } from '../common/grpc/client-stream.js';
import type { ClientTls } from '../common/grpc/client-tls.js';
import { isWeftError, type WeftError } from '../common/errors.js';
import { ClusterService } from '../gen/weft/v1/cluster_pb.js';
import { Transport } from './transport.js';

/** Longest wait for one member's GetClusterStatus during discovery. */
export const discovery_call_timeout_ms = 2000;

/** Where a call may go: `entry` reaches the leader (directly or forwarded); `any` is any member. */
export type Route = 'entry' | 'any';

export interface LeaderView {
  /** '' until a member names one. */
  readonly leader_id: string;
  readonly raft_term: bigint;
  /** The member address calls to the leader go through: the leader's own when it announces one. */
  readonly entry: string;
}

/** A failure after which another member, or the same one later, may answer: the route is re-learned. */
export function isMemberFailure(e: unknown): e is WeftError {
  return isWeftError(e) && (e.code === 'UNAVAILABLE' || e.reason === 'NOT_LEADER' || e.reason === 'LEADERSHIP_LOST' || e.reason === 'MEMBER_REMOVED');
}

export class Members {
  /** The addresses given to connect, then each leader address learned. Invariant: no duplicates. */
  private readonly addresses: string[];
  private readonly transports = new Map<string, Transport>();
  /** Index into `addresses` of the entry member; always < addresses.length. */
  private entry = 0;
  /** Round-robin position for `any` calls. */
  private next_any = 0;
  /** True after a member failure, and before the first call: the next `entry` call discovers first. */
  private stale: boolean;
  /** True when the entry member itself failed the last call: discovery asks the others first. */
  private entry_failed = false;
  private leader_id = '';
  private raft_term = 0n;

  constructor(
    addresses: readonly string[],
    private readonly message_bytes_max: number,
    private readonly http2_engine?: ClientHttp2Engine,
    private readonly tls?: ClientTls,
  ) {
    if (addresses.length === 0) throw new Error('connect needs at least one member address');
    this.addresses = [...new Set(addresses)];
    this.stale = true;
  }

  get view(): LeaderView {
    return { leader_id: this.leader_id, raft_term: this.raft_term, entry: this.addresses[this.entry]! };
  }

  transportOf(address: string): Transport {
    let t = this.transports.get(address);
    if (t === undefined) {
      t = new Transport(address, this.message_bytes_max, this.http2_engine, this.tls);
      this.transports.set(address, t);
    }
    return t;
  }

  async pick(route: Route): Promise<Transport> {
    switch (route) {
      case 'entry':
        if (this.stale) await this.discover();
        return this.transportOf(this.addresses[this.entry]!);
      case 'any': {
        const address = this.addresses[this.next_any % this.addresses.length]!;
        this.next_any = (this.next_any + 1) % this.addresses.length;
        return this.transportOf(address);
      }
    }
  }

  /** Records what a failed call says: NOT_LEADER names the leader; any member failure makes the route stale. */
  failed(e: WeftError): void {
    const lead = e.metadata['leader_id'];
    if (e.reason === 'NOT_LEADER' && lead !== undefined && lead !== '' && lead !== '0') this.leader_id = lead;
    this.stale = true;
    this.entry_failed = true;
  }

  /**
   * The entry for a status answered by member `i`: the leader's announced address when the leader
   * answers there and agrees it leads (it may be unreachable from this client, e.g. behind NAT),
   * else member `i`, which forwards.
   */
  private async entryFor(i: number, leader_id: string, leader_grpc: string): Promise<number> {
    if (leader_grpc === '' || leader_grpc === this.addresses[i]) return i;
    try {
      const s = await this.transportOf(leader_grpc).unary(ClusterService.method.getClusterStatus, {}, { timeout_ms: discovery_call_timeout_ms });
      if (s.leaderId !== leader_id) return i;
    } catch {
      return i;
    }
    const known = this.addresses.indexOf(leader_grpc);
    return known >= 0 ? known : this.addresses.push(leader_grpc) - 1;
  }

  /**
   * Asks each member in turn, starting after the current entry when it failed, for the group's
   * status; the first that names a leader becomes the entry. When none does, the route stays
   * stale and the caller's next attempt asks again.
   */
  async discover(): Promise<LeaderView> {
    const n = this.addresses.length;
    const first = this.entry_failed && n > 1 ? (this.entry + 1) % n : this.entry;
    for (let k = 0; k < n; k++) {
      const i = (first + k) % n;
      try {
        const s = await this.transportOf(this.addresses[i]!).unary(ClusterService.method.getClusterStatus, {}, { timeout_ms: discovery_call_timeout_ms });
        if (s.leaderId === '') continue;
        this.leader_id = s.leaderId;
        this.raft_term = s.raftTerm;
        this.entry = await this.entryFor(i, s.leaderId, s.nodes.find((node) => node.nodeId === s.leaderId)?.grpcAddress ?? '');
        this.stale = false;
        this.entry_failed = false;
        return this.view;
      } catch {
        // This member is down or cut off: ask the next.
      }
    }
    this.stale = true;
    return this.view;
  }

  close(): void {
    for (const t of this.transports.values()) t.close();
    this.transports.clear();
  }
}
