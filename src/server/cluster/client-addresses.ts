import type { NodeId } from '../../log/raft/types.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';

/**
 * Where clients reach each member: its gRPC and REST addresses, as the member announces them. They
 * are not in the log: a member restarted on other ports (or moved behind another address) announces
 * the new ones, and nothing about them needs consensus. A member answers the peer call
 * `weft.member.client_addresses` with its own; the leader asks every member before it reports the
 * group's status and keeps the last answer of each, so a member that stopped answering is still
 * reported where it was last seen. A JoinNode request may name them before the member first answers.
 */
export interface ClientAddress {
  /** host:port of the gRPC API; '' when not known. */
  readonly grpc: string;
  /** host:port of the REST API; '' when not known. */
  readonly rest: string;
}

export const UNKNOWN_CLIENT_ADDRESS: ClientAddress = { grpc: '', rest: '' };

const CLIENT_ADDRESSES_METHOD = 'weft.member.client_addresses';

/** Bound on asking one member for its addresses; a status is answered without it past this. */
export const client_address_call_timeout_ms = 500;

/** How often a member checks whether it knows its leader's client addresses (ClientAddresses.watchLeader). */
export const leader_address_poll_ms = 500;

export class ClientAddresses {
  /** This member's own, set once its API servers listen. */
  private own: ClientAddress = UNKNOWN_CLIENT_ADDRESS;
  /** The last addresses each other member announced (or a JoinNode named). */
  private readonly known = new Map<NodeId, ClientAddress>();

  constructor(
    private readonly self: NodeId,
    private readonly transport: PeerTransport | undefined,
  ) {
    transport?.handle(CLIENT_ADDRESSES_METHOD, async () => Buffer.from(JSON.stringify(this.own)));
  }

  /** Records this member's own addresses (after its servers bound their ports). */
  announce(own: ClientAddress): void {
    this.own = own;
  }

  /** Records what a JoinNode request named, until the member answers for itself. */
  named(node_id: NodeId, address: ClientAddress): void {
    if (address.grpc === '' && address.rest === '') return;
    if (!this.known.has(node_id)) this.known.set(node_id, address);
  }

  /** Records what the leader reported, so this member still knows them if it comes to lead. */
  reported(node_id: NodeId, address: ClientAddress): void {
    if (node_id !== this.self && address.grpc !== '') this.known.set(node_id, address);
  }

  of(node_id: NodeId): ClientAddress {
    return node_id === this.self ? this.own : (this.known.get(node_id) ?? UNKNOWN_CLIENT_ADDRESS);
  }

  /**
   * Keeps the leader's addresses known on every member, so a refusal names where to retry
   * (NOT_LEADER, MEMBER_READ_ONLY): every `every_ms`, asks a leader this member has not heard
   * from yet. Returns the function that stops it.
   */
  watchLeader(leader: () => NodeId, every_ms: number): () => void {
    let asked: NodeId = 0;
    const timer = setInterval(() => {
      const id = leader();
      if (id === 0 || id === this.self || (id === asked && this.known.has(id))) return;
      asked = id;
      void this.refresh([id]);
    }, every_ms);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Asks each of `members` (this one aside) for its addresses, in parallel, each bounded; failures keep the last known. */
  async refresh(members: readonly NodeId[]): Promise<void> {
    const t = this.transport;
    if (t === undefined) return;
    await Promise.all(
      members
        .filter((id) => id !== this.self)
        .map(async (id) => {
          try {
            const answer = JSON.parse(Buffer.from(await t.call(id, CLIENT_ADDRESSES_METHOD, new Uint8Array(), client_address_call_timeout_ms)).toString('utf8')) as unknown;
            if (isClientAddress(answer)) this.known.set(id, answer);
          } catch {
            // Down, cut off, or not yet joined: report it where it was last seen.
          }
        }),
    );
  }
}

function isClientAddress(v: unknown): v is ClientAddress {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return typeof r['grpc'] === 'string' && typeof r['rest'] === 'string';
}
