import { AssertionFailure } from '../../src/common/assert.js';
import { decodeConfChange } from '../../src/log/raft/index.js';
import type { ConfChange, Message, NodeId, RaftConfig, Ready } from '../../src/log/raft/index.js';
import { sendsBeforePersist } from '../../src/log/driver/send-order.js';
import { SafetyChecker } from './checker-safety.js';
import { StateChecker } from './checker-state.js';
import { DiskAndProcessFaults } from './disk-faults.js';
import { ClientPool } from './clients.js';
import type { ClientOp } from './clients.js';
import { decodeKv, decodePut, encodeKv, encodePut } from './kv.js';
import { checkLinearizable } from './linearizability.js';
import { SimMember } from './member.js';
import { SimNetwork } from './network.js';
import type { SimOptions } from './options.js';
import { Prng } from './prng.js';

export interface SimResult {
  readonly seed: number;
  readonly violations: readonly string[];
  /** Ticks from the end of faults until a leader existed and a new proposal committed; undefined if never. */
  readonly liveness_ticks: number | undefined;
  readonly stats: Record<string, number>;
}

/** Bound on Ready rounds a member handles per tick: a member that never quiesces is a bug. */
const READY_ROUNDS_MAX = 50;
/** Message delay bound once faults stop; a round trip stays well under election_ticks. */
const CALM_DELAY_TICKS_MAX = 2;
/** Every this many ticks the logs are compared pairwise. */
const LOG_MATCHING_EVERY_TICKS = 25;
/** Chance per tick that a leader's fsync left running returns. */
const SYNC_RETURNS_P = 0.5;

/**
 * Many members of the real core in one process, on a simulated clock (ticks) and network, driven by
 * one seeded PRNG. Faults come first, then calm, during which liveness is measured.
 */
export class Simulation {
  readonly prng: Prng;
  readonly net: SimNetwork;
  readonly members = new Map<NodeId, SimMember>();
  readonly clients: ClientPool;
  readonly safety = new SafetyChecker();
  readonly state = new StateChecker();
  now = 0;
  private next_id: NodeId;
  private readonly stats = {
    elections: 0,
    crashes: 0,
    conf_changes: 0,
    transfers: 0,
    snapshots_sent: 0,
    applied_entries: 0,
    torn_writes: 0,
    fsync_failures: 0,
    bit_flips: 0,
    repairs: 0,
    pauses: 0,
  };
  readonly trace: string[] = [];
  /** Client writes received this tick, by member, proposed together at the end of the tick. */
  private readonly write_batches = new Map<NodeId, ClientOp[]>();
  /** Leaders to be crashed or isolated at a tick soon after their election. */
  private readonly doomed = new Map<NodeId, number>();
  /** False once the calm begins. */
  private faulty = true;
  /** Values of liveness probes some member applied. */
  private readonly probes_applied = new Set<string>();
  private readonly disk_faults: DiskAndProcessFaults;

  constructor(
    readonly opts: SimOptions,
    private readonly tracing = false,
  ) {
    this.prng = new Prng(opts.seed);
    this.net = new SimNetwork(this.prng, opts.faults);
    this.clients = new ClientPool(opts.clients, this.prng);
    const voters = Array.from({ length: opts.members_initial }, (_, k) => k + 1);
    for (const id of voters) this.members.set(id, this.newMember(id, voters));
    this.next_id = voters.length + 1;
    this.disk_faults = new DiskAndProcessFaults({
      prng: this.prng,
      opts,
      members: this.members,
      now: () => this.now,
      count: (stat) => this.stats[stat]++,
      log: (what) => this.log(what),
    });
  }

  private newMember(id: NodeId, initial_voters: readonly NodeId[] | undefined): SimMember {
    const m = new SimMember(id, this.config(id), initial_voters);
    m.clock_rate = 1 + (2 * this.prng.float() - 1) * this.opts.clock_skew_max;
    return m;
  }

  private config(id: NodeId): RaftConfig {
    const o = this.opts;
    return {
      id,
      election_ticks: o.election_ticks,
      heartbeat_ticks: o.heartbeat_ticks,
      random_int: (n) => this.prng.int(n),
      pre_vote: o.pre_vote,
      check_quorum: o.check_quorum,
      msg_bytes_max: o.msg_bytes_max,
      inflight_msgs_max: o.inflight_msgs_max,
      // As the member driver runs it: a leader's own entries count only once fsynced.
      leader_self_ack: o.unsafe_leader_counts_unsynced ? 'on_append' : 'on_persist',
      unsafe_bugs: o.unsafe_bugs,
    };
  }

  private log(what: string): void {
    if (this.tracing) this.trace.push(`[${this.now}] ${what}`);
  }

  run(): SimResult {
    let liveness_ticks: number | undefined;
    try {
      for (let t = 0; t < this.opts.fault_ticks; t++) {
        this.injectFaults();
        this.operate();
        this.tick(true);
      }
      liveness_ticks = this.calm();
    } catch (e) {
      // A failed assertion inside the core is a found bug like any other: report it with the seed.
      if (!(e instanceof AssertionFailure)) throw e;
      return { seed: this.opts.seed, violations: [...this.safety.violations, ...this.state.violations, `tick ${this.now}: assertion failed: ${e.message}`], liveness_ticks: undefined, stats: {} };
    }
    this.clients.expireAll();
    this.safety.checkLogMatching(this.now, this.aliveNodes());
    const violations = [...this.safety.violations, ...this.state.violations];
    const lin = checkLinearizable(this.clients.checkedHistory());
    if (!lin.ok) violations.push(`linearizability: history of key ${lin.key} (${lin.ops.length} operations) is not linearizable`);
    if (liveness_ticks === undefined) violations.push(`liveness: no leader committed a new proposal within ${this.opts.liveness_ticks_max} ticks of calm`);
    return {
      seed: this.opts.seed,
      violations,
      liveness_ticks,
      stats: {
        ...this.stats,
        ticks: this.now,
        messages: this.net.sent,
        ops_completed: this.clients.completed,
        ops_unknown: this.clients.unknown,
        history: this.clients.history.length,
      },
    };
  }

  /** One tick: time passes, messages arrive, clients act, members carry out their Readies. */
  private tick(clients_on: boolean): void {
    this.now++;
    for (const m of this.members.values()) {
      if (!m.alive || m.isPaused(this.now)) continue;
      // A woken process first handles what queued up while it was stopped.
      for (const msg of m.inbox.splice(0)) m.node.step(msg);
      // Clocks are skewed only while faults last; calm means healthy clocks too.
      m.clock_owed += this.faulty ? m.clock_rate : 1;
      for (; m.clock_owed >= 1; m.clock_owed--) m.node.tick();
      this.syncLater(m);
    }
    for (const msg of this.net.due(this.now)) {
      const to = this.members.get(msg.to);
      if (!to?.alive) continue;
      if (to.isPaused(this.now)) to.inbox.push(msg);
      else to.node.step(msg);
    }
    if (clients_on) for (const op of this.clients.issue(this.now)) this.submit(op);
    this.flushWrites();
    this.clients.expire(this.now);
    for (const m of this.members.values()) this.handleReadies(m);
    if (this.now % LOG_MATCHING_EVERY_TICKS === 0) this.safety.checkLogMatching(this.now, this.aliveNodes());
  }

  private aliveNodes(): SimMember[] {
    return [...this.members.values()].filter((m) => m.alive);
  }

  /** The running leader with the highest term, if any. */
  leader(): SimMember | undefined {
    let best: SimMember | undefined;
    for (const m of this.members.values()) {
      if (m.alive && !m.isPaused(this.now) && m.node.raft.role === 'leader' && (!best || m.node.raft.term > best.node.raft.term)) best = m;
    }
    return best;
  }

  private submit(op: ClientOp): void {
    const hint = this.clients.leader_hint.get(op.client);
    const running = this.disk_faults.running();
    const hinted = hint === undefined ? undefined : this.members.get(hint);
    // A request to a paused process gets no answer: the client moves on as after a timeout.
    if (hinted?.alive && hinted.isPaused(this.now)) return this.clients.fail(op.id);
    if (running.length === 0) return this.clients.fail(op.id);
    const target = hinted?.alive ? hinted : this.prng.pick(running);
    if (op.kind === 'put') {
      // Writes arriving at one member in one tick are group-committed (see flushWrites).
      const batch = this.write_batches.get(target.id);
      if (batch) batch.push(op);
      else this.write_batches.set(target.id, [op]);
    } else {
      const ctx = `r${op.id}`;
      const refusal = target.node.readIndex(ctx);
      if (refusal) return this.clients.fail(op.id, target.node.raft.lead);
      this.clients.leader_hint.set(op.client, target.id);
      target.reads.set(ctx, { op: op.id, key: op.key, index: undefined });
    }
  }

  /** Proposes each member's writes of this tick as one batch: one index each, consecutive. */
  private flushWrites(): void {
    for (const [id, ops] of this.write_batches) {
      const target = this.members.get(id)!;
      const payloads = ops.map((op) => encodePut({ op: op.id, key: op.key, value: op.value }));
      const r = ops.length === 1 ? target.node.propose(payloads[0]!) : target.node.proposeBatch(payloads);
      ops.forEach((op, k) => {
        if (!r.ok) return this.clients.fail(op.id, r.lead);
        this.clients.leader_hint.set(op.client, target.id);
        const index = r.index - ops.length + 1 + k;
        target.writes.set(index, { op: op.id, index });
      });
    }
    this.write_batches.clear();
  }

  private handleReadies(m: SimMember): void {
    for (let round = 0; m.alive && !m.isPaused(this.now) && m.node.hasReady(); round++) {
      if (round >= READY_ROUNDS_MAX) throw new Error(`member ${m.id} did not quiesce in ${READY_ROUNDS_MAX} Ready rounds`);
      this.handleReady(m);
    }
  }

  /** Exactly what the member driver does: persist (sync if asked), send, apply, advance. */
  private handleReady(m: SimMember): void {
    const rd = m.node.ready();
    if (rd.soft_state) {
      m.role = rd.soft_state.role;
      m.lead = rd.soft_state.lead;
      if (m.role === 'leader') {
        this.stats.elections++;
        this.log(`${m.id} leads term ${m.node.raft.term}`);
        this.safety.onLeader(this.now, m.id, m.node.raft.term, m.node);
        if (this.faulty && this.prng.chance(this.opts.new_leader_fault_p)) this.doomed.set(m.id, this.now + 1 + this.prng.int(this.opts.new_leader_fault_ticks_max));
      }
    }
    // As the member driver does, a leader's replication messages leave before its own fsync, so a
    // crash mid-write can leave followers holding entries the leader loses.
    const send_first = sendsBeforePersist(m.role, rd, m.storage.hardState());
    if (send_first) for (const msg of rd.messages) this.send(m, msg);
    if (rd.snapshot) m.storage.applySnapshot(rd.snapshot);
    m.storage.append(rd.entries);
    if (rd.hard_state) m.storage.setHardState(rd.hard_state);
    // Writes without must_sync (a commit-only hard state) reach the page cache only: a crash loses them.
    // A leader's replication Ready does not wait for its fsync, which returns some ticks later
    // (syncLater); every other Ready waits for the whole log, earlier unsynced entries included.
    if (send_first) {
      if (rd.must_sync) m.unsynced = true;
    } else if (rd.must_sync || m.unsynced) {
      if (this.faulty && this.disk_faults.stopsMidWrite(m, rd)) return;
      if (!this.skipsSync(rd)) m.sync();
    }
    if (!send_first) for (const msg of rd.messages) this.send(m, msg);
    if (rd.snapshot) {
      m.kv = decodeKv(rd.snapshot.data);
      m.applied_index = rd.snapshot.meta.index;
      this.state.onState(this.now, m.id, m.applied_index, m.kv);
    }
    for (const e of rd.committed_entries) {
      this.safety.onApply(this.now, m.id, e);
      this.stats.applied_entries++;
      if (e.type === 'conf_change') {
        const cc = decodeConfChange(e.data);
        m.node.applyConfChange(cc);
      } else {
        const put = decodePut(e.data);
        if (put) m.kv.set(put.key, put.value);
        if (put?.op === 0) this.probes_applied.add(put.value);
      }
      m.applied_index = e.index;
      const w = m.writes.get(e.index);
      if (w) {
        m.writes.delete(e.index);
        const put = e.type === 'normal' ? decodePut(e.data) : undefined;
        if (put?.op === w.op) this.clients.complete(w.op, null);
        else this.clients.fail(w.op);
      }
    }
    if (rd.committed_entries.length > 0) this.state.onState(this.now, m.id, m.applied_index, m.kv);
    for (const rs of rd.read_states) {
      const r = m.reads.get(rs.request_ctx);
      if (r) r.index = rs.index;
    }
    for (const [ctx, r] of m.reads) {
      if (r.index !== undefined && r.index <= m.applied_index) {
        m.reads.delete(ctx);
        this.clients.complete(r.op, m.kv.get(r.key) ?? null);
      }
    }
    m.node.advance();
    this.maybeSnapshot(m);
  }

  /** A leader's fsync left running by a replication Ready returns, on average a tick or two later. */
  private syncLater(m: SimMember): void {
    if (m.unsynced && this.prng.chance(SYNC_RETURNS_P)) m.sync();
  }

  /** The planted driver bugs that skip a sync the core asked for. */
  private skipsSync(rd: Ready): boolean {
    if (this.opts.unsafe_driver_skips_sync) return true;
    return this.opts.unsafe_driver_skips_vote_sync && rd.entries.length === 0 && rd.snapshot === undefined;
  }

  private send(m: SimMember, msg: Message): void {
    if (msg.type !== 'snap') {
      this.net.send(msg, this.now);
      return;
    }
    this.stats.snapshots_sent++;
    let delivered = this.net.send(msg, this.now);
    if (!delivered && this.opts.unsafe_snapshot_lost_reported_delivered) {
      // The planted bug: the data is lost, its position arrives, and the send is reported a success.
      this.net.send({ ...msg, snapshot: { ...msg.snapshot, data: encodeKv(new Map()) } }, this.now);
      delivered = true;
    }
    m.node.reportSnapshot(msg.to, delivered);
  }

  /** The application checkpoints its state and compacts the log behind it. */
  private maybeSnapshot(m: SimMember): void {
    const snap_index = m.storage.snapshot().meta.index;
    if (m.applied_index - snap_index < this.opts.snapshot_entries) return;
    m.storage.createSnapshot(m.applied_index, m.node.confState(), encodeKv(m.kv));
    const keep_from = m.applied_index - this.opts.compact_keep_entries;
    if (keep_from >= m.storage.firstIndex()) m.storage.compact(keep_from);
    if (!this.opts.unsafe_driver_skips_sync) m.sync();
  }

  private injectFaults(): void {
    const p = this.prng;
    const o = this.opts;
    const ids = [...this.members.keys()];
    if (p.chance(o.partition_p) && this.net.cutCount() === 0) {
      const side = new Set(ids.filter(() => p.chance(0.5)));
      const one_way = p.chance(0.3);
      for (const a of ids) {
        for (const b of ids) {
          if (side.has(a) && !side.has(b)) this.net.cutLink(a, b);
          if (!one_way && !side.has(a) && side.has(b)) this.net.cutLink(a, b);
        }
      }
      this.log(`partition ${[...side].join(',')} | rest${one_way ? ' (one way)' : ''}`);
    }
    const leader = this.leader();
    for (const [id, at] of this.doomed) {
      if (at > this.now) continue;
      this.doomed.delete(id);
      const m = this.members.get(id)!;
      if (m.alive && m.role === 'leader') this.faultLeader(m);
    }
    if (leader && p.chance(o.leader_fault_p)) this.faultLeader(leader);
    if (p.chance(o.heal_p) && this.net.cutCount() > 0) {
      this.net.heal();
      this.log('heal');
    }
    const alive = this.aliveNodes();
    const down = [...this.members.values()].filter((m) => !m.alive);
    if (p.chance(o.crash_p) && down.length < 2 && alive.length > 1) {
      const victim = p.pick(alive);
      victim.crash();
      this.stats.crashes++;
      this.log(`crash ${victim.id}`);
    }
    if (p.chance(o.restart_p) && down.length > 0) this.disk_faults.restart(p.pick(down));
    this.disk_faults.inject();
  }

  /** Crashes the leader, or cuts it off from everyone (it keeps taking proposals it cannot commit). */
  private faultLeader(leader: SimMember): void {
    const ids = [...this.members.keys()];
    if (this.prng.chance(0.5) && [...this.members.values()].filter((m) => !m.alive).length < 2) {
      leader.crash();
      this.stats.crashes++;
      this.log(`crash leader ${leader.id}`);
    } else {
      this.net.heal();
      for (const id of ids) {
        if (id === leader.id) continue;
        this.net.cutLink(id, leader.id);
        this.net.cutLink(leader.id, id);
      }
      this.log(`isolate leader ${leader.id}`);
    }
  }

  /** The operator's hand: membership changes and leadership transfers under load. */
  private operate(): void {
    const p = this.prng;
    const leader = this.leader();
    if (!leader) return;
    const cs = leader.node.confState();
    if (p.chance(this.opts.transfer_p)) {
      const others = cs.voters.filter((id) => id !== leader.id);
      if (others.length > 0) {
        const to = p.pick(others);
        if (leader.node.transferLeader(to) === undefined) {
          this.stats.transfers++;
          this.log(`transfer ${leader.id} -> ${to}`);
        }
      }
    }
    if (!p.chance(this.opts.conf_change_p)) return;
    let cc: ConfChange | undefined;
    const removable = [...cs.voters.filter((id) => id !== leader.id && cs.voters.length > 3), ...cs.learners];
    const roll = p.float();
    if (cs.learners.length > 0 && roll < 0.4) cc = { kind: 'add_voter', node: p.pick(cs.learners) };
    else if (this.next_id <= this.opts.members_max && roll < 0.7) cc = { kind: 'add_learner', node: this.next_id };
    else if (removable.length > 0) cc = { kind: 'remove', node: p.pick(removable) };
    if (!cc) return;
    const r = leader.node.proposeConfChange(cc);
    if (!r.ok) return;
    this.stats.conf_changes++;
    this.log(`propose ${cc.kind}(${cc.node}) at ${r.index}`);
    if (cc.kind === 'add_learner') {
      this.members.set(cc.node, this.newMember(cc.node, undefined));
      this.next_id++;
    }
  }

  /**
   * Faults stop: links heal, the network stops losing messages, crashed members restart. Returns
   * the ticks until some leader has committed a proposal made after the calm began.
   */
  private calm(): number | undefined {
    this.faulty = false;
    this.net.heal();
    // Calm means a healthy network: no loss, and round trips well inside the election timeout.
    this.net.faults = { drop_p: 0, duplicate_p: 0, delay_ticks_min: 1, delay_ticks_max: CALM_DELAY_TICKS_MAX };
    for (const m of this.members.values()) m.paused_until = Math.min(m.paused_until, this.now);
    // Members with intact disks first: a damaged one may need all of them running to repair.
    const down = [...this.members.values()].filter((m) => !m.alive);
    for (const m of [...down.filter((d) => !d.disk.isDamaged()), ...down.filter((d) => d.disk.isDamaged())]) this.disk_faults.restart(m);
    const start = this.now;
    // A probe is re-proposed to each new leader; any of them committing counts.
    let probe: { member: SimMember; term: number } | undefined;
    const values: string[] = [];
    while (this.now - start < this.opts.liveness_ticks_max) {
      this.tick(false);
      if (values.some((v) => this.probes_applied.has(v))) return this.now - start;
      if (this.tracing && (this.now - start) % 30 === 0) for (const m of this.members.values()) this.log(describeMember(m));
      const leader = this.leader();
      if (leader && (!probe || probe.member !== leader || leader.node.raft.term !== probe.term)) {
        const value = `probe@${this.now}`;
        const r = leader.node.propose(encodePut({ op: 0, key: 'probe', value }));
        if (r.ok) {
          probe = { member: leader, term: r.term };
          values.push(value);
        }
      }
    }
    return undefined;
  }
}

export function runSimulation(opts: SimOptions, tracing = false): SimResult & { trace: readonly string[] } {
  const sim = new Simulation(opts, tracing);
  const result = sim.run();
  return { ...result, trace: sim.trace };
}

function describeMember(m: SimMember): string {
  const s = m.node.status();
  const r = m.node.raft;
  const prs = s.role === 'leader' ? ' ' + [...r.tracker.progress].map(([id, pr]) => `${id}:${pr.describe()}`).join(' | ') : '';
  return `  ${m.id}${m.alive ? '' : ' (down)'} ${s.role} term=${s.hard_state.term} vote=${s.hard_state.vote} lead=${s.lead} commit=${s.hard_state.commit} applied=${s.applied} last=${s.last_index} first=${r.log.firstIndex()} voters=${s.conf_state.voters.join(',')} learners=${s.conf_state.learners.join(',')} elapsed=${r.election_elapsed}/${r.randomized_election_timeout}${prs}`;
}

