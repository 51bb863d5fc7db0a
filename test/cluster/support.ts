import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConcernWait } from '../../src/log/driver/log-driver.js';
import { MembershipAdmin } from '../../src/server/cluster/membership-admin.js';
import { Database, type DatabaseOptions } from '../../src/server/database.js';
import { MemoryHub, type MemoryTransport } from '../support/memory-transport.js';

/** A group of members in this process, over the in-memory transport, each with its own data directory. */
export interface Member {
  readonly id: number;
  readonly address: string;
  readonly dir: string;
  db: Database;
  transport: MemoryTransport;
  admin: MembershipAdmin;
}

export const majority: ConcernWait = { acks: 2, level: 'journal', timeout_ms: 0 };

/** Short ticks keep elections quick; a real deployment uses 100 ms. */
export const FAST_TIMING = { tick_ms: 10, election_ticks: 10, heartbeat_ticks: 1 };

export class TestGroup {
  readonly hub = new MemoryHub();
  readonly root = mkdtempSync(join(tmpdir(), 'weft-group-'));
  readonly members = new Map<number, Member>();

  identity(id: number): string {
    return `spiffe://weft.test/member/${id}`;
  }

  /** Opens member `id`; `join_wait` members form nothing and wait for the leader. */
  async open(id: number, join_wait: boolean, overrides: Partial<DatabaseOptions> = {}): Promise<Member> {
    const address = `mem:${id}`;
    const dir = join(this.root, `member-${id}`);
    const transport = this.hub.transport(address);
    const db = await Database.open({
      data_dir: dir,
      node_id: id,
      mvcc_retention_secs: 300,
      checkpoint_interval_entries: 100_000,
      log_segment_bytes_max: 1 << 20,
      raft: FAST_TIMING,
      join_wait,
      self: { address, identity: this.identity(id) },
      transport,
      ...overrides,
    });
    const admin = new MembershipAdmin(db, { poll_ms: 20, promote_lag_entries: 1000, concern: () => ({ acks: 1, level: 'journal', timeout_ms: 0 }), log: () => undefined });
    const m: Member = { id, address, dir, db, transport, admin };
    this.members.set(id, m);
    return m;
  }

  /** Member 1 founds the group; the others join through it and are promoted to voters. */
  async form(n: number): Promise<void> {
    await this.open(1, false);
    for (let id = 2; id <= n; id++) {
      await this.open(id, true);
      await this.join(id);
    }
  }

  async join(id: number): Promise<void> {
    const leader = this.leader();
    await leader.admin.join({ node_id: id, address: `mem:${id}`, identity: this.identity(id), pre_seeded: false });
    await until(() => leader.db.log.membership.conf_state.voters.includes(id), `member ${id} promoted to voter`);
  }

  /** The member that accepts writes now (among those not stopped). */
  leader(): Member {
    const found = [...this.members.values()].find((m) => m.db.log.acceptsWrites);
    if (found === undefined) throw new Error('no member accepts writes');
    return found;
  }

  async awaitLeader(exclude: readonly number[] = []): Promise<Member> {
    await until(() => [...this.members.values()].some((m) => !exclude.includes(m.id) && m.db.log.acceptsWrites), 'a leader is elected');
    return this.leader();
  }

  /** Stops member `id` as a crash would look to the others: cut off first, then closed. */
  async kill(id: number): Promise<void> {
    const m = this.members.get(id)!;
    this.hub.isolate(m.address);
    this.members.delete(id);
    m.admin.stop();
    await m.db.close(0).catch(() => undefined);
    await m.transport.close();
    this.hub.heal(m.address);
  }

  async close(): Promise<void> {
    for (const id of [...this.members.keys()]) await this.kill(id);
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Polls `cond` every 10 ms; fails after `timeout_ms` naming what it waited for. */
export async function until(cond: () => boolean, what: string, timeout_ms = 10_000): Promise<void> {
  const deadline = Date.now() + timeout_ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout_ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
