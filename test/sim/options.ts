import type { UnsafeBugs } from '../../src/log/raft/index.js';
import type { ClientSettings } from './clients.js';
import type { NetworkFaults } from './network.js';
import { Prng } from './prng.js';

/** Everything a run depends on besides its seed. The same options and seed replay the same run. */
export interface SimOptions {
  readonly seed: number;
  readonly members_initial: number;
  /** Ids ever created, counting members added by membership changes. */
  readonly members_max: number;
  readonly election_ticks: number;
  readonly heartbeat_ticks: number;
  readonly pre_vote: boolean;
  readonly check_quorum: boolean;
  /** Ticks of faults (crashes, partitions, lossy network, membership changes) before the calm. */
  readonly fault_ticks: number;
  /** After the faults stop: the bound on ticks until a leader is elected and a new proposal commits. */
  readonly liveness_ticks_max: number;
  readonly faults: NetworkFaults;
  /** Chances per tick during the fault phase. */
  readonly crash_p: number;
  readonly restart_p: number;
  readonly partition_p: number;
  /** Chance per tick to crash or isolate whoever leads: elections amid uncommitted entries. */
  readonly leader_fault_p: number;
  /** Chance that a newly elected leader is crashed or isolated a few ticks into its term (Raft figure 8). */
  readonly new_leader_fault_p: number;
  /** A doomed new leader fails within this many ticks: long enough to replicate a little, not to finish. */
  readonly new_leader_fault_ticks_max: number;
  readonly heal_p: number;
  readonly conf_change_p: number;
  readonly transfer_p: number;
  /** A member snapshots its state after this many applied entries and compacts its log behind it. */
  readonly snapshot_entries: number;
  /** Entries kept behind a snapshot, so a slightly lagging follower still gets entries. */
  readonly compact_keep_entries: number;
  readonly msg_bytes_max: number;
  readonly inflight_msgs_max: number;
  readonly clients: ClientSettings;
  readonly unsafe_bugs: UnsafeBugs;
  /** A broken driver, for tests only: it never fsyncs, so a crash loses votes and entries it acknowledged. */
  readonly unsafe_driver_skips_sync: boolean;
  /** A broken driver: it ignores must_sync when a Ready holds only a hard state (a vote or a new term). */
  readonly unsafe_driver_skips_vote_sync: boolean;
  /**
   * A broken core setting: the leader counts its own entries toward a commit as it appends them
   * (leader_self_ack 'on_append') while the driver leaves its fsync running, so an entry can commit
   * on one durable copy and the leader's page cache.
   */
  readonly unsafe_leader_counts_unsynced: boolean;
  /**
   * A broken transport: a snapshot whose data was lost on the way is reported delivered
   * (reportSnapshot ok), and the follower installs the snapshot's position without its state.
   */
  readonly unsafe_snapshot_lost_reported_delivered: boolean;
  // The disk and process faults of the fault phase (test/sim/disk.ts). Chances are per event named.
  /** Per synced write: the process dies before the sync returns, leaving the write torn. */
  readonly torn_write_p: number;
  /** Per synced write: fsync fails; the member stops (no retry), its write torn like a crash. */
  readonly fsync_fail_p: number;
  /** Per tick: one record on one member's disk rots (a bit flip), found at latest on restart. */
  readonly bit_flip_p: number;
  /** Chance that a rotten record of a running member is read (and the member stops) at once. */
  readonly rot_found_by_read_p: number;
  /** Per tick: a running member's process pauses (no ticks, no messages handled) for a while. */
  readonly pause_p: number;
  readonly pause_ticks_max: number;
  /** Each member's clock runs at a rate drawn from [1 - clock_skew_max, 1 + clock_skew_max]. */
  readonly clock_skew_max: number;
}

/**
 * A harsher profile for hunting rarer interleavings (Raft figure 8 among them): three members, long
 * runs, one entry per append, frequent crashes and partitions, new leaders often failing within a few
 * ticks, a lossy slow network.
 */
export function harshOptions(seed: number, overrides: Partial<SimOptions> = {}): SimOptions {
  const base = defaultOptions(seed);
  return {
    ...base,
    members_initial: 3,
    fault_ticks: 2000,
    msg_bytes_max: 1,
    crash_p: 0.03,
    restart_p: 0.1,
    partition_p: 0.04,
    heal_p: 0.05,
    leader_fault_p: 0.02,
    new_leader_fault_p: 0.5,
    new_leader_fault_ticks_max: 12,
    faults: { drop_p: 0.15, duplicate_p: 0.05, delay_ticks_min: 1, delay_ticks_max: 8 },
    ...overrides,
  };
}

/**
 * Membership churn: the default profile with an operator who changes the membership at every
 * chance, so changes follow each other closely (the guard against two pending changes matters).
 */
export function churnOptions(seed: number, overrides: Partial<SimOptions> = {}): SimOptions {
  return defaultOptions(seed, { conf_change_p: 0.3, ...overrides });
}

/** The planted bugs `npm run sim -- --bug NAME` can switch on, by name. */
export function bugOptions(name: string): Partial<SimOptions> {
  switch (name) {
    case 'skips_sync':
      return { unsafe_driver_skips_sync: true };
    case 'skips_vote_sync':
      return { unsafe_driver_skips_vote_sync: true };
    case 'leader_counts_unsynced':
      return { unsafe_leader_counts_unsynced: true };
    case 'snapshot_lost_reported_delivered':
      return { unsafe_snapshot_lost_reported_delivered: true };
    default:
      return { unsafe_bugs: { [name]: true } };
  }
}

/**
 * The default profile. A few choices (cluster size, PreVote, CheckQuorum, how lossy) vary with the
 * seed so the seeds together cover more ground; each is still fixed by its seed.
 */
export function defaultOptions(seed: number, overrides: Partial<SimOptions> = {}): SimOptions {
  const p = new Prng(seed ^ 0x5eed);
  const lossy = p.chance(0.5);
  return {
    seed,
    members_initial: p.pick([3, 3, 5]),
    members_max: 7,
    election_ticks: 10,
    heartbeat_ticks: 2,
    pre_vote: p.chance(0.75),
    check_quorum: p.chance(0.75),
    fault_ticks: 400,
    liveness_ticks_max: 120,
    faults: {
      drop_p: lossy ? 0.1 : 0.02,
      duplicate_p: lossy ? 0.05 : 0.01,
      delay_ticks_min: 1,
      delay_ticks_max: lossy ? 6 : 3,
    },
    crash_p: 0.01,
    restart_p: 0.05,
    partition_p: 0.01,
    leader_fault_p: 0.002,
    new_leader_fault_p: 0.1,
    new_leader_fault_ticks_max: 12,
    heal_p: 0.03,
    conf_change_p: 0.01,
    transfer_p: 0.005,
    snapshot_entries: 20,
    compact_keep_entries: 5,
    msg_bytes_max: 256,
    inflight_msgs_max: 4,
    clients: { clients: 3, keys: 3, op_p: 0.3, get_p: 0.4, timeout_ticks: 50 },
    unsafe_bugs: {},
    unsafe_driver_skips_sync: false,
    unsafe_driver_skips_vote_sync: false,
    unsafe_leader_counts_unsynced: false,
    unsafe_snapshot_lost_reported_delivered: false,
    torn_write_p: 0.001,
    fsync_fail_p: 0.0005,
    bit_flip_p: 0.002,
    rot_found_by_read_p: 0.5,
    pause_p: 0.004,
    pause_ticks_max: 25,
    clock_skew_max: 0.2,
    ...overrides,
  };
}
