/**
 * Weft's Raft core. Pure and synchronous: no timers, clock, randomness or I/O inside.
 *
 * Driving a member (the contract every driver follows, the simulator and the server alike):
 *
 *   const storage = new MemoryStorage();          // or a disk Storage
 *   bootstrap(storage, [1, 2, 3]);                // a new cluster's initial members, once
 *   const node = new RawNode({ id: 1, election_ticks: 10, heartbeat_ticks: 1, random_int }, storage);
 *
 *   loop:
 *     node.tick()                 every tick (the only unit of time)
 *     node.step(message)          for every message received from a peer
 *     node.propose(data)          on the leader; refused elsewhere or during a leadership transfer
 *     if (node.hasReady()) {
 *       const rd = node.ready();
 *       1. persist rd.snapshot, rd.entries, rd.hard_state (fsync if rd.must_sync)
 *       2. send rd.messages                      (never before step 1: they promise what it persisted)
 *       3. apply rd.snapshot, rd.committed_entries; for 'conf_change' entries call
 *          node.applyConfChange(decodeConfChange(e.data)); serve rd.read_states once applied
 *       node.advance();
 *     }
 *
 * After a crash, build a new RawNode on the persisted storage with `applied` set to what the state
 * machine has (e.g. its checkpoint index); committed entries after it are handed out again.
 * Conf changes are applied idempotently, so re-applying them is harmless.
 *
 * Snapshots: the application snapshots its state at an applied index with storage.createSnapshot()
 * and may then storage.compact() the log up to it; the leader sends that snapshot to members whose
 * next entry is compacted. Report the outcome of sending one with reportSnapshot().
 */
export type { BootstrapTarget } from './bootstrap.js';
export { bootstrap } from './bootstrap.js';
export type { RaftConfig, UnsafeBugs } from './config.js';
export type { ConfChange } from './conf-change.js';
export { decodeConfChange, encodeConfChange } from './conf-change.js';
export type { Ready, Status } from './raw-node.js';
export { RawNode } from './raw-node.js';
export type { Storage } from './storage.js';
export { MemoryStorage } from './storage.js';
export type {
  AppendMessage,
  AppendResponse,
  ConfState,
  Entry,
  EntryType,
  HardState,
  HeartbeatMessage,
  HeartbeatResponse,
  Message,
  MessageType,
  NodeId,
  ProposeResult,
  RandomInt,
  ReadState,
  Refusal,
  Role,
  Snapshot,
  SnapshotMeta,
  SnapshotMessage,
  SoftState,
  TimeoutNowMessage,
  VoteMessage,
  VoteResponse,
} from './types.js';
export { EMPTY_HARD_STATE, NONE } from './types.js';
