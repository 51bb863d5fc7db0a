import { MemoryStorage, RawNode, bootstrap } from '../../src/log/raft/index.js';
import type { Message, NodeId, RaftConfig, Role } from '../../src/log/raft/index.js';
import { SimDisk } from './disk.js';
import { decodeKv } from './kv.js';
import type { Prng } from './prng.js';

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
 * its disk (what survives a crash, with its faults: see SimDisk) and its in-memory key-value state.
 */
export class SimMember {
  node: RawNode;
  /** What the core reads: every write, synced or not. */
  storage: MemoryStorage;
  readonly disk: SimDisk;
  alive = true;
  kv = new Map<string, string>();
  applied_index = 0;
  role: Role = 'follower';
  lead: NodeId = 0;
  readonly writes = new Map<number, PendingWrite>();
  readonly reads = new Map<string, PendingRead>();
  restarts = 0;
  /** A paused process (a stop-the-world pause, SIGSTOP) does nothing until this tick. */
  paused_until = 0;
  /** Messages that arrived while paused, handled in order on waking. */
  readonly inbox: Message[] = [];
  /** Ticks of this member's clock per tick of simulated time: a skewed clock runs fast or slow. */
  clock_rate = 1;
  /** Fractional ticks owed to the member's clock. Invariant: 0 <= clock_owed < 1 between ticks. */
  clock_owed = 0;

  constructor(
    readonly id: NodeId,
    readonly config: RaftConfig,
    initial_voters: readonly NodeId[] | undefined,
  ) {
    this.storage = new MemoryStorage();
    if (initial_voters) bootstrap(this.storage, initial_voters);
    this.disk = new SimDisk(this.storage);
    this.node = new RawNode(config, this.storage);
  }

  /**
   * Entries a leader wrote without waiting for their fsync (the driver's replication Readies):
   * a crash before the fsync returns loses them.
   */
  unsynced = false;

  /** Everything written so far is now synced; as the driver does, the core hears of it. */
  sync(): void {
    this.disk.sync(this.storage);
    this.unsynced = false;
    this.node.persisted(this.storage.lastIndex());
  }

  isPaused(now: number): boolean {
    return this.paused_until > now;
  }

  crash(): void {
    this.alive = false;
    this.unsynced = false;
    this.paused_until = 0;
    this.inbox.length = 0;
    this.writes.clear();
    this.reads.clear();
  }

  /**
   * Comes back with what its disk recovers; the state machine reloads from the snapshot and replays.
   * Returns false, and stays down, while a damaged log cannot be repaired from `peers`.
   */
  restart(prng: Prng, peers: readonly MemoryStorage[], all_others_running: boolean): boolean {
    const storage = this.disk.recover(prng, peers, all_others_running);
    if (storage === undefined) return false;
    this.storage = storage;
    const snap = this.storage.snapshot();
    this.kv = decodeKv(snap.data);
    this.applied_index = snap.meta.index;
    this.node = new RawNode({ ...this.config, applied: snap.meta.index }, this.storage);
    this.role = 'follower';
    this.lead = 0;
    this.alive = true;
    this.restarts++;
    return true;
  }
}
