import { MemoryStorage, RawNode, bootstrap } from '../../src/log/raft/index.js';
import type { NodeId, RaftConfig, Role } from '../../src/log/raft/index.js';
import { decodeKv } from './kv.js';

/** A client operation waiting at the member that accepted it. */
export interface PendingWrite {
  readonly op: number;
  readonly index: number;
}

export interface PendingRead {
  readonly op: number;
  readonly key: string;
  /** Set once the leader confirmed the read point; the read is served when applied reaches it. */
  index: number | undefined;
}

/**
 * One simulated member: the real RawNode, the storage it reads (everything written, synced or not),
 * the durable copy (what survives a crash: only synced writes) and its in-memory key-value state.
 */
export class SimMember {
  node: RawNode;
  /** What the core reads: every write, synced or not. */
  storage: MemoryStorage;
  /** What a crash leaves: the state as of the last sync. Writes made without must_sync are not here. */
  durable: MemoryStorage;
  alive = true;
  kv = new Map<string, string>();
  applied_index = 0;
  role: Role = 'follower';
  lead: NodeId = 0;
  readonly writes = new Map<number, PendingWrite>();
  readonly reads = new Map<string, PendingRead>();
  restarts = 0;

  constructor(
    readonly id: NodeId,
    readonly config: RaftConfig,
    initial_voters: readonly NodeId[] | undefined,
  ) {
    this.storage = new MemoryStorage();
    if (initial_voters) bootstrap(this.storage, initial_voters);
    this.durable = this.storage.clone();
    this.node = new RawNode(config, this.storage);
  }

  /** Everything written so far is now synced. */
  sync(): void {
    this.durable = this.storage.clone();
  }

  crash(): void {
    this.alive = false;
    this.writes.clear();
    this.reads.clear();
  }

  /** Comes back with only what was synced; the state machine reloads from the snapshot and replays. */
  restart(): void {
    this.storage = this.durable.clone();
    const snap = this.storage.snapshot();
    this.kv = decodeKv(snap.data);
    this.applied_index = snap.meta.index;
    this.node = new RawNode({ ...this.config, applied: snap.meta.index }, this.storage);
    this.role = 'follower';
    this.lead = 0;
    this.alive = true;
    this.restarts++;
  }
}
