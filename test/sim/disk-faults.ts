import type { NodeId, Ready } from '../../src/log/raft/index.js';
import type { SimMember } from './member.js';
import type { SimOptions } from './options.js';
import type { Prng } from './prng.js';

/** The counters these faults add to a run's stats. */
export type DiskFaultStat = 'crashes' | 'torn_writes' | 'fsync_failures' | 'bit_flips' | 'repairs' | 'pauses';

/** What the faults need of the simulation they act on. */
export interface FaultScene {
  readonly prng: Prng;
  readonly opts: SimOptions;
  readonly members: ReadonlyMap<NodeId, SimMember>;
  now(): number;
  count(stat: DiskFaultStat): void;
  log(what: string): void;
}

/**
 * The disk and process faults of the fault phase (docs/storage.md): writes torn by a crash or a
 * failed fsync, bit rot found by a read or at restart and repaired from peers, process pauses.
 * Every choice comes from the scene's PRNG, so a seed replays them exactly.
 */
export class DiskAndProcessFaults {
  constructor(private readonly scene: FaultScene) {}

  /** Running members: alive and not paused. */
  running(): SimMember[] {
    const now = this.scene.now();
    return [...this.scene.members.values()].filter((m) => m.alive && !m.isPaused(now));
  }

  /** Whether one more member may stop now; the faults keep at most two members down at once. */
  mayStop(): boolean {
    return [...this.scene.members.values()].filter((m) => !m.alive).length < 2;
  }

  /**
   * Whether the process dies before this Ready's sync returns (a crash, or a failed fsync that stops
   * the member rather than retry). If so the write is torn and the member is down.
   */
  stopsMidWrite(m: SimMember, rd: Ready): boolean {
    const { prng, opts } = this.scene;
    if (!this.mayStop()) return false;
    const roll = prng.float();
    if (roll >= opts.torn_write_p + opts.fsync_fail_p) return false;
    const fsync_failed = roll >= opts.torn_write_p;
    const { entries_kept } = m.disk.tear(prng, rd.snapshot, rd.entries, rd.hard_state);
    m.crash();
    this.scene.count('crashes');
    this.scene.count(fsync_failed ? 'fsync_failures' : 'torn_writes');
    this.scene.log(`${fsync_failed ? 'fsync failed, stop' : 'crash mid-write'} ${m.id}: ${entries_kept} of ${rd.entries.length} entries reached the disk`);
    return true;
  }

  /** Restarts `m` unless its damaged log cannot yet be repaired from peers; then it stays down. */
  restart(m: SimMember): void {
    const repairing = m.disk.isDamaged();
    const running = this.running();
    const all_others_running = running.length === this.scene.members.size - 1;
    if (!m.restart(this.scene.prng, running.map((p) => p.storage), all_others_running)) {
      this.scene.log(`${m.id} stays down: its damaged log cannot be repaired from the running members yet`);
      return;
    }
    if (repairing) this.scene.count('repairs');
    this.scene.log(`restart ${m.id}${repairing ? ' (its damaged log cut and refilled from a peer)' : ''}`);
  }

  /** One tick's chance of bit rot on a disk and of a process pause. */
  inject(): void {
    const { prng: p, opts: o } = this.scene;
    // As in TigerBeetle's VOPR, storage faults leave the group recoverable: one damaged disk at a time.
    const members = [...this.scene.members.values()];
    if (p.chance(o.bit_flip_p) && !members.some((m) => m.disk.isDamaged())) {
      const m = p.pick(members);
      const index = m.disk.rot(p);
      if (index !== undefined) {
        this.scene.count('bit_flips');
        this.scene.log(`bit flip in entry ${index} on ${m.id}'s disk`);
        // The segment log verifies checksums on every read: a member that reads the record stops
        // with DATA_LOSS rather than serve it.
        if (m.alive && p.chance(o.rot_found_by_read_p) && this.mayStop()) {
          m.crash();
          this.scene.count('crashes');
          this.scene.log(`${m.id} read the damaged entry ${index}: stops`);
        }
      }
    }
    if (p.chance(o.pause_p)) {
      const running = this.running();
      if (running.length > 0) {
        const m = p.pick(running);
        m.paused_until = this.scene.now() + 1 + p.int(o.pause_ticks_max);
        this.scene.count('pauses');
        this.scene.log(`pause ${m.id} until ${m.paused_until}`);
      }
    }
  }
}
