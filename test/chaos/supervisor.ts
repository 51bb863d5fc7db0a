import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type MemberProcess, type MemberProcessSpec, startMemberProcess } from '../../src/cli/member-process.js';

/**
 * The members of a chaos run as OS processes: started, killed with SIGKILL, paused with SIGSTOP and
 * continued, restarted on the same data directory and ports, and stopped, each by pid. Every wait is
 * bounded by member-process.ts (start and stop waits).
 */
export type MemberState = 'running' | 'paused' | 'killed' | 'stopped';

interface Slot {
  readonly spec: MemberProcessSpec;
  process: MemberProcess;
  state: MemberState;
}

/**
 * Bound on a member's restart. Longer than a first start's: a restart replays the log since the last
 * checkpoint, and a long run shares the machine with its own clients, proxies and other members
 * (a 200-round run on a loaded 2-core machine once saw a restart pass 30 s).
 */
export const member_restart_wait_ms = 120_000;

export class Supervisor {
  private readonly slots = new Map<number, Slot>();

  /** `logs_dir`: each member's output is appended to `member-<id>.log` there as each of its processes ends. */
  constructor(
    private readonly log: (line: string) => void = () => {},
    private readonly logs_dir?: string,
  ) {}

  /** Appends what a member's process printed to its log file (once, as the process is left behind). */
  private keepOutput(node_id: number, process: MemberProcess): void {
    if (this.logs_dir === undefined) return;
    mkdirSync(this.logs_dir, { recursive: true });
    appendFileSync(join(this.logs_dir, `member-${node_id}.log`), `--- pid ${process.pid}\n${process.output()}\n`);
  }

  /**
   * Starts a member, given as long as a restart: a replacement starts mid-run, under the same load
   * (two runs of seeds 93101 and 93102 stopped at a replacement that printed nothing in 30 s, the
   * machine's load average above 20).
   */
  async start(spec: MemberProcessSpec): Promise<MemberProcess> {
    const process = await startMemberProcess(spec, member_restart_wait_ms);
    this.slots.set(spec.node_id, { spec, process, state: 'running' });
    this.log(`member ${spec.node_id}: started, pid ${process.pid}`);
    return process;
  }

  member(node_id: number): MemberProcess {
    return this.slot(node_id).process;
  }

  state(node_id: number): MemberState {
    return this.slot(node_id).state;
  }

  get ids(): number[] {
    return [...this.slots.keys()].sort((a, b) => a - b);
  }

  /** kill -9: no drain, no checkpoint; what was not fsynced is gone. */
  async kill(node_id: number): Promise<void> {
    const slot = this.slot(node_id);
    await slot.process.kill();
    this.keepOutput(node_id, slot.process);
    slot.state = 'killed';
    this.log(`member ${node_id}: killed (SIGKILL, pid ${slot.process.pid})`);
  }

  pause(node_id: number): void {
    const slot = this.slot(node_id);
    slot.process.signal('SIGSTOP');
    slot.state = 'paused';
    this.log(`member ${node_id}: paused (SIGSTOP, pid ${slot.process.pid})`);
  }

  resume(node_id: number): void {
    const slot = this.slot(node_id);
    slot.process.signal('SIGCONT');
    slot.state = 'running';
    this.log(`member ${node_id}: continued (SIGCONT, pid ${slot.process.pid})`);
  }

  /** Starts a killed or stopped member again on its data directory and ports; a running one is stopped first. */
  async restart(node_id: number): Promise<MemberProcess> {
    const slot = this.slot(node_id);
    if (slot.state === 'running' || slot.state === 'paused') {
      await slot.process.stop();
      this.keepOutput(node_id, slot.process);
    }
    slot.process = await startMemberProcess(slot.spec, member_restart_wait_ms);
    slot.state = 'running';
    this.log(`member ${node_id}: restarted, pid ${slot.process.pid}`);
    return slot.process;
  }

  /** Drops a member that is gone for good (removed from the group, its process ended) from the run. */
  forget(node_id: number): void {
    const slot = this.slot(node_id);
    if (slot.state === 'running' || slot.state === 'paused') throw new Error(`member ${node_id} is still ${slot.state}`);
    this.slots.delete(node_id);
  }

  /** SIGTERM (after SIGCONT) to every member still there; resolves once all are gone. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        if (slot.state === 'running' || slot.state === 'paused') {
          await slot.process.stop();
          this.keepOutput(slot.spec.node_id, slot.process);
        }
        slot.state = 'stopped';
      }),
    );
  }

  private slot(node_id: number): Slot {
    const slot = this.slots.get(node_id);
    if (slot === undefined) throw new Error(`no member ${node_id} in this run`);
    return slot;
  }
}
