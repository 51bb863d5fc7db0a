import type { NodeId } from '../raft/types.js';
import type { PeerAddress } from './peer-transport.js';

/**
 * Who may speak to this member, and under which identity (SPEC 5.1). TLS has already proved that the
 * caller's certificate chains to the group's CA and is in date; this decides whether the SPIFFE ID it
 * proves is the one bound to the member id the frame claims to come from.
 *
 * A member started to wait for a join belongs to no membership yet, so nothing binds its peers. In
 * the 'open_until_bound' mode it admits any identity the CA signed, pinning each sender id to the
 * first identity it came with (and remembering the address it can be answered at), until setPeers
 * first names a peer other than itself. From then on the membership alone decides, for good: the
 * pins are dropped and the mode never opens again.
 */
export type AdmissionMode = 'bound' | 'open_until_bound';

export type AdmissionVerdict = { readonly admitted: true } | { readonly admitted: false; readonly why: string };

export class PeerBinding {
  private bound: ReadonlyMap<NodeId, PeerAddress> = new Map();
  /** Invariant: empty once `open` is false. */
  private readonly pinned = new Map<NodeId, PeerAddress>();
  private open: boolean;

  constructor(
    private readonly self: NodeId,
    mode: AdmissionMode,
  ) {
    this.open = mode === 'open_until_bound';
  }

  /** True while this member, waiting to be joined, admits any CA-signed identity. */
  get isOpen(): boolean {
    return this.open;
  }

  setPeers(peers: ReadonlyMap<NodeId, PeerAddress>): void {
    this.bound = new Map(peers);
    if (this.open && [...peers.keys()].some((id) => id !== this.self)) {
      this.open = false;
      this.pinned.clear();
    }
  }

  /** Where peer `id` is dialed and which identity it must prove: the membership's binding, or a pin while open. */
  peer(id: NodeId): PeerAddress | undefined {
    return this.bound.get(id) ?? this.pinned.get(id);
  }

  /** The ids this member can send to now. */
  peerIds(): NodeId[] {
    return [...new Set([...this.bound.keys(), ...this.pinned.keys()])].filter((id) => id !== this.self);
  }

  admit(from: NodeId, identity: string | undefined, from_address: string): AdmissionVerdict {
    if (identity === undefined) return { admitted: false, why: 'the certificate proves no SPIFFE ID' };
    if (from === this.self) return { admitted: false, why: `a peer claims this member's own id ${from}` };
    const bound = this.bound.get(from);
    if (bound !== undefined) {
      return bound.identity === identity
        ? { admitted: true }
        : { admitted: false, why: `member ${from} is bound to ${bound.identity}, the caller proves ${identity}` };
    }
    if (!this.open) return { admitted: false, why: `member ${from} is not in this member's membership` };
    const pin = this.pinned.get(from);
    if (pin !== undefined && pin.identity !== identity) {
      return { admitted: false, why: `member ${from} first came as ${pin.identity}, the caller proves ${identity}` };
    }
    this.pinned.set(from, { address: from_address, identity });
    return { admitted: true };
  }
}
