import type { WeftError } from '../../common/errors.js';
import { reasonError } from '../../api/error-catalog.js';
import { assert } from '../../common/assert.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { NodeId } from '../../log/raft/types.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';
import { decodeFrame, encodeFrame } from '../../log/transport/peer-wire.js';
import { HANDSHAKE_METHOD, isVersionReport, type VersionReport } from '../../log/version/handshake.js';
import { majorityPair, type VoterVersion } from '../../log/version/majority-pair.js';
import { newerGroupVersion, pairText, samePair, type GroupVersion, type VersionPair } from '../../log/version/version-pair.js';
import type { Event } from '../../log/events.js';
import type { Database } from '../database.js';
import { WritePause } from './write-pause.js';

/**
 * A member's side of SPEC 9: what it runs, what its group recorded, what it knows of each voter, and
 * what follows from that.
 *
 * - Every `probe_ms` it sends the version handshake to every other voter and records the answer
 *   (pair, group version, whether that member leads) with the time it came; a handshake it answers
 *   is recorded the same way. Members of another pair exchange nothing else (version/handshake.ts).
 * - It is read-only while its pair differs from its group's newest recorded version: its log's, or a
 *   newer one a voter told it (the group moved past it). Writes are then refused MEMBER_READ_ONLY
 *   (Database.writeGate), never forwarded.
 * - When it leads, its pair differs from the last one its log recorded, and its pair is the
 *   majority_pair of its leader view, it proposes the group_version entry; its writes open once that
 *   entry is applied.
 * - It measures the write pause: how long no member it knows of has been able to write.
 */
export interface VersionMonitorOptions {
  readonly pair: VersionPair;
  readonly transport: PeerTransport | undefined;
  /** How long a voter's answer keeps it live in the leader's view: an election timeout (SPEC 9.8). */
  readonly election_timeout_ms: number;
  readonly probe_ms: number;
  readonly concern: () => ConcernWait;
  readonly log: (line: string) => void;
  readonly now?: () => number;
}

/** Between handshakes to every voter; a few per election timeout keeps the leader's view live. */
export const version_probe_ms = 200;

interface Heard {
  readonly pair: VersionPair;
  readonly group: GroupVersion | null;
  readonly leads: boolean;
  readonly at_ms: number;
}

export class VersionMonitor {
  /** What each member last said of itself in a handshake, and when. */
  private readonly heard = new Map<NodeId, Heard>();
  /** The last pair other members told of each voter (a follower's view reaches past its leader this way). */
  private readonly told = new Map<NodeId, VersionPair>();
  /** The newest group version a voter told of. */
  private learned: GroupVersion | undefined;
  /** The term in which this member proposed its group version, so it proposes once per term. */
  private proposed_term = 0;
  private probing = false;
  private timer: NodeJS.Timeout | undefined;
  readonly pause: WritePause;
  /** Writes refused because this member is read-only (graphdb_version_refused_writes_total). */
  refused_writes = 0;
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    private readonly options: VersionMonitorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.pause = new WritePause(this.now);
  }

  start(): void {
    this.options.transport?.handle(HANDSHAKE_METHOD, async (from, payload) => {
      const report: unknown = decodeFrame(Buffer.from(payload));
      if (isVersionReport(report) && report.node_id === from) this.record(report);
      return encodeFrame(this.report());
    });
    this.db.writeGate = (event) => this.gate(event);
    this.timer = setInterval(() => this.tick(), this.options.probe_ms);
    this.timer.unref();
    this.tick();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  get pair(): VersionPair {
    return this.options.pair;
  }

  /** The group version this member's own log recorded; absent before it belongs to a deployment. */
  get recorded(): GroupVersion | undefined {
    const sm = this.db.sm;
    if (sm.groupVersionSeq === 0) return undefined;
    return { pair: { engine: sm.engineFormat, host_epoch: sm.groupHostEpoch }, seq: sm.groupVersionSeq };
  }

  /** The newest group version this member knows. */
  get group(): GroupVersion | undefined {
    const own = this.recorded;
    return own === undefined ? this.learned : newerGroupVersion(own, this.learned);
  }

  get readOnly(): boolean {
    const group = this.group;
    return group !== undefined && !samePair(group.pair, this.options.pair);
  }

  /** The group moved past this member: a voter told of a version record newer than its log's. */
  get behind(): boolean {
    const group = this.group;
    return this.readOnly && group !== undefined && group.seq > (this.recorded?.seq ?? 0);
  }

  /** The commit_ts of the last entry this member applied: what a read on a read-only member sees. */
  get asOfTs(): number {
    return this.db.sm.clock.tsOf(this.db.sm.appliedIndex) ?? 0;
  }

  /** Each voter with the last pair this member knows, and whether it counts as live (SPEC 9.8). */
  voters(): VoterVersion[] {
    const self = this.db.log.nodeId;
    const leading = this.db.log.isLeader;
    const now = this.now();
    return this.db.log.membership.conf_state.voters.map((node_id): VoterVersion => {
      if (node_id === self) return { node_id, pair: this.options.pair, live: true };
      const h = this.heard.get(node_id);
      if (leading) return { node_id, pair: h?.pair, live: h !== undefined && now - h.at_ms <= this.options.election_timeout_ms };
      const pair = h?.pair ?? this.told.get(node_id);
      return { node_id, pair, live: pair !== undefined };
    });
  }

  majorityPair(): VersionPair | undefined {
    return majorityPair(this.voters());
  }

  /** The member that takes writes at the group's version, as far as this member knows. */
  writingLeader(): NodeId | undefined {
    const log = this.db.log;
    if (!this.readOnly && log.leaderId !== 0 && (log.leaderId !== log.nodeId || log.acceptsWrites)) return log.leaderId;
    const group = this.group;
    if (group === undefined) return undefined;
    const now = this.now();
    for (const [id, h] of this.heard) {
      if (h.leads && samePair(h.pair, group.pair) && now - h.at_ms <= this.options.election_timeout_ms) return id;
    }
    return undefined;
  }

  /** The peer address the membership records for `node_id`; empty when it records none. */
  memberAddress(node_id: NodeId): string {
    return this.db.log.clientAddressOf(node_id);
  }

  /** The refusal of a write on a read-only member, with every metadata key of SPEC 7. */
  readOnlyError(): WeftError {
    const group = this.group;
    assert(group !== undefined, 'a read-only member knows its group version');
    const leader = this.writingLeader();
    return reasonError(
      'MEMBER_READ_ONLY',
      `member ${this.db.log.nodeId} runs version ${pairText(this.options.pair)} but its group runs ${pairText(group.pair)}: it is read-only; retry at the leader`,
      {
        member_engine_format: String(this.options.pair.engine),
        member_host_epoch: String(this.options.pair.host_epoch),
        group_engine_format: String(group.pair.engine),
        group_host_epoch: String(group.pair.host_epoch),
        behind: String(this.behind),
        as_of_ts: String(this.asOfTs),
        ...(leader !== undefined ? { leader_id: String(leader), leader_addr: this.memberAddress(leader) } : {}),
      },
    );
  }

  /** This member's handshake: what it says of itself to any voter, whatever that voter runs. */
  report(): VersionReport {
    const voters: [NodeId, VersionPair][] = [[this.db.log.nodeId, this.options.pair]];
    for (const id of this.db.log.membership.conf_state.voters) {
      const pair = id === this.db.log.nodeId ? undefined : (this.heard.get(id)?.pair ?? this.told.get(id));
      if (pair !== undefined) voters.push([id, pair]);
    }
    return {
      node_id: this.db.log.nodeId,
      pair: this.options.pair,
      deployment: this.deploymentHex(),
      group: this.group ?? null,
      leads: this.db.log.acceptsWrites && !this.readOnly,
      leader_id: this.db.log.leaderId,
      voters,
    };
  }

  private deploymentHex(): string {
    const d = this.db.sm.deployment;
    return d === undefined ? '' : Buffer.from(d).toString('hex');
  }

  private gate(event: Event | undefined): void {
    // The entry that records the group's new version is the one write a leader at that version makes
    // before the group runs it.
    if (event?.kind === 'group_version' || !this.readOnly) return;
    this.refused_writes++;
    throw this.readOnlyError();
  }

  private record(report: VersionReport): void {
    const own = this.deploymentHex();
    if (own !== '' && report.deployment !== '' && report.deployment !== own) return;
    this.heard.set(report.node_id, { pair: report.pair, group: report.group, leads: report.leads, at_ms: this.now() });
    for (const [id, pair] of report.voters) if (id !== this.db.log.nodeId && id !== report.node_id) this.told.set(id, pair);
    if (report.group !== null && (this.learned === undefined || report.group.seq > this.learned.seq)) {
      const was = this.readOnly;
      this.learned = report.group;
      if (this.readOnly !== was) this.options.log(`weft: the group runs version ${pairText(report.group.pair)} (record ${report.group.seq}); this member runs ${pairText(this.options.pair)} and is read-only`);
    }
  }

  private tick(): void {
    void this.probe();
    this.proposeIfDue();
    this.pause.observe(this.writingLeader() !== undefined);
  }

  private async probe(): Promise<void> {
    const t = this.options.transport;
    if (t === undefined || this.probing) return;
    this.probing = true;
    try {
      const payload = encodeFrame(this.report());
      const others = this.db.log.membership.conf_state.voters.filter((id) => id !== this.db.log.nodeId);
      await Promise.all(
        others.map(async (id) => {
          try {
            const answer: unknown = decodeFrame(Buffer.from(await t.call(id, HANDSHAKE_METHOD, payload, this.options.election_timeout_ms)));
            if (isVersionReport(answer) && answer.node_id === id) this.record(answer);
          } catch {
            // Unreachable: it stops counting as live once its last answer is an election timeout old.
          }
        }),
      );
    } finally {
      this.probing = false;
    }
    this.proposeIfDue();
    this.pause.observe(this.writingLeader() !== undefined);
  }

  /** A leader at a pair the majority runs and the log has not recorded records it (SPEC 9.5). */
  private proposeIfDue(): void {
    const log = this.db.log;
    const recorded = this.recorded;
    if (!log.acceptsWrites || recorded === undefined || samePair(recorded.pair, this.options.pair)) return;
    if (this.proposed_term === log.term) return;
    const majority = this.majorityPair();
    if (majority === undefined || !samePair(majority, this.options.pair)) return;
    this.proposed_term = log.term;
    const event: Event = { kind: 'group_version', engine_format: this.options.pair.engine, host_epoch: this.options.pair.host_epoch, seq: recorded.seq + 1 };
    this.options.log(`weft: a majority of voters runs version ${pairText(this.options.pair)}; recording it as record ${event.seq} (the group ran ${pairText(recorded.pair)})`);
    this.db.submit(event, this.options.concern()).then(
      (receipt) => this.options.log(`weft: the group runs version ${pairText(this.options.pair)} from log index ${receipt.index}; writes resume`),
      (e: unknown) => {
        // Leadership lost before it committed: the next leader at this pair proposes it again.
        this.proposed_term = 0;
        this.options.log(`weft: recording version ${pairText(this.options.pair)} failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }
}
