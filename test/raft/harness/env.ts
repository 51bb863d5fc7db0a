import { assert } from '../../../src/common/assert.js';
import { MemoryStorage, RawNode, bootstrap, decodeConfChange } from '../../../src/log/raft/index.js';
import type { ConfChange, Message, NodeId, RaftConfig, Ready } from '../../../src/log/raft/index.js';
import { formatEntries, formatMessage, formatReady } from './format.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Member {
  node: RawNode;
  storage: MemoryStorage;
  config: RaftConfig;
  /** Application payloads applied so far with their indexes, in order (the state machine of the traces). */
  applied: { index: number; data: string }[];
  applied_index: number;
}

/** Upper bound on Ready/delivery rounds in one `stabilize`, so a livelock fails the trace instead of hanging. */
const STABILIZE_ROUNDS_MAX = 200;

/**
 * A cluster driven by hand: each command does one thing and prints what happened. Messages wait in
 * one queue until delivered or dropped; a partition drops them at delivery.
 */
export class TraceEnv {
  readonly members = new Map<NodeId, Member>();
  /** Messages sent and not yet delivered, in send order. */
  queue: Message[] = [];
  /** Messages set aside by `hold`, to be re-queued (after everything sent meanwhile) by `release`. */
  held: Message[] = [];
  /** Directed links that drop everything ("from->to"). */
  readonly cut = new Set<string>();

  private member(id: NodeId): Member {
    const m = this.members.get(id);
    assert(m !== undefined, `no member ${id}`);
    return m;
  }

  addNodes(ids: NodeId[], voters: NodeId[], learners: NodeId[], opts: Partial<RaftConfig>): string[] {
    for (const id of ids) {
      const storage = new MemoryStorage();
      if (voters.includes(id) || learners.includes(id)) bootstrap(storage, voters, learners);
      const config: RaftConfig = { id, election_ticks: 10, heartbeat_ticks: 1, random_int: () => 0, ...opts };
      this.members.set(id, { node: new RawNode(config, storage), storage, config, applied: [], applied_index: 0 });
    }
    return [];
  }

  /** Carries out one member's Ready as a driver must: persist, then send, then apply. */
  processReady(id: NodeId): string[] {
    const m = this.member(id);
    if (!m.node.hasReady()) return [];
    const rd = m.node.ready();
    const out = formatReady(id, rd);
    this.persist(m, rd);
    this.queue.push(...rd.messages);
    out.push(...this.apply(m, rd));
    m.node.advance();
    return out;
  }

  private persist(m: Member, rd: Ready): void {
    if (rd.snapshot) m.storage.applySnapshot(rd.snapshot);
    m.storage.append(rd.entries);
    if (rd.hard_state) m.storage.setHardState(rd.hard_state);
  }

  private apply(m: Member, rd: Ready): string[] {
    const out: string[] = [];
    if (rd.snapshot) {
      m.applied = JSON.parse(decoder.decode(rd.snapshot.data)) as { index: number; data: string }[];
      m.applied_index = rd.snapshot.meta.index;
    }
    for (const e of rd.committed_entries) {
      if (e.type === 'conf_change') {
        const cs = m.node.applyConfChange(decodeConfChange(e.data));
        out.push(`  applied conf: voters=${cs.voters.join(',')} learners=${cs.learners.join(',')}`);
      } else if (e.data.byteLength > 0) {
        m.applied.push({ index: e.index, data: decoder.decode(e.data) });
      }
      m.applied_index = e.index;
    }
    return out;
  }

  deliver(to: NodeId | undefined, drop: boolean): string[] {
    const out: string[] = [];
    const keep: Message[] = [];
    const take = this.queue.filter((msg) => to === undefined || msg.to === to);
    for (const msg of this.queue) if (!(to === undefined || msg.to === to)) keep.push(msg);
    this.queue = keep;
    for (const msg of take) {
      const dropped = drop || this.cut.has(`${msg.from}->${msg.to}`) || !this.members.has(msg.to);
      out.push(`${dropped ? 'dropped' : 'deliver'}: ${formatMessage(msg)}`);
      if (!dropped) this.member(msg.to).node.step(msg);
    }
    return out;
  }

  dropBetween(from: NodeId, to: NodeId): string[] {
    const out: string[] = [];
    this.queue = this.queue.filter((msg) => {
      const hit = msg.from === from && msg.to === to;
      if (hit) out.push(`dropped: ${formatMessage(msg)}`);
      return !hit;
    });
    return out;
  }

  /** Sets aside the queued messages from -> to: they arrive late, after what is sent meanwhile. */
  hold(from: NodeId, to: NodeId): string[] {
    const out: string[] = [];
    this.queue = this.queue.filter((msg) => {
      const hit = msg.from === from && msg.to === to;
      if (hit) {
        this.held.push(msg);
        out.push(`held: ${formatMessage(msg)}`);
      }
      return !hit;
    });
    return out;
  }

  release(): string[] {
    const out = this.held.map((msg) => `released: ${formatMessage(msg)}`);
    this.queue.push(...this.held);
    this.held = [];
    return out;
  }

  /** Readies and deliveries until nothing moves. */
  stabilize(ids: NodeId[]): string[] {
    const out: string[] = [];
    const scope = ids.length > 0 ? ids : [...this.members.keys()].sort((a, b) => a - b);
    for (let round = 0; ; round++) {
      assert(round < STABILIZE_ROUNDS_MAX, 'stabilize did not settle');
      let moved = false;
      for (const id of scope) {
        const lines = this.processReady(id);
        if (lines.length > 0) moved = true;
        out.push(...lines);
      }
      for (const id of scope) {
        if (!this.queue.some((m) => m.to === id)) continue;
        moved = true;
        out.push(...this.deliver(id, false));
      }
      if (!moved) return out;
    }
  }

  partition(groups: NodeId[][]): string[] {
    this.cut.clear();
    for (const g of groups) {
      for (const h of groups) {
        if (g === h) continue;
        for (const a of g) for (const b of h) this.cut.add(`${a}->${b}`);
      }
    }
    return [];
  }

  cutLink(from: NodeId, to: NodeId): string[] {
    this.cut.add(`${from}->${to}`);
    return [];
  }

  heal(): string[] {
    this.cut.clear();
    return [];
  }

  tick(id: NodeId, n: number): string[] {
    const m = this.member(id);
    for (let k = 0; k < n; k++) m.node.tick();
    return [];
  }

  propose(id: NodeId, data: string): string[] {
    const r = this.member(id).node.propose(encoder.encode(data));
    return r.ok ? [`proposed at ${r.term}/${r.index}`] : [`refused: ${r.refusal} (lead=${r.lead})`];
  }

  proposeBatch(id: NodeId, data: string[]): string[] {
    const r = this.member(id).node.proposeBatch(data.map((d) => encoder.encode(d)));
    return r.ok ? [`proposed ${data.length} at ${r.term}/${r.index - data.length + 1}..${r.index}`] : [`refused: ${r.refusal} (lead=${r.lead})`];
  }

  proposeConf(id: NodeId, cc: ConfChange): string[] {
    const r = this.member(id).node.proposeConfChange(cc);
    return r.ok ? [`proposed ${cc.kind}(${cc.node}) at ${r.term}/${r.index}`] : [`refused: ${r.refusal} (lead=${r.lead})`];
  }

  transfer(id: NodeId, to: NodeId): string[] {
    const refusal = this.member(id).node.transferLeader(to);
    return refusal ? [`refused: ${refusal}`] : [];
  }

  readIndex(id: NodeId, ctx: string): string[] {
    const refusal = this.member(id).node.readIndex(ctx);
    return refusal ? [`refused: ${refusal}`] : [];
  }

  /** The application snapshots its applied state at `index` and drops the log up to it. */
  compact(id: NodeId, index: number): string[] {
    const m = this.member(id);
    assert(index <= m.applied_index, `compact ${index} beyond applied ${m.applied_index}`);
    // The snapshot holds the state as of `index`, not everything applied since.
    const state = m.applied.filter((a) => a.index <= index);
    m.storage.createSnapshot(index, m.node.confState(), encoder.encode(JSON.stringify(state)));
    m.storage.compact(index);
    return [`compacted to ${index}: first index ${m.storage.firstIndex()}`];
  }

  /** Loses everything not persisted, and restarts from storage with the snapshot as applied state. */
  restart(id: NodeId): string[] {
    const m = this.member(id);
    this.queue = this.queue.filter((msg) => msg.to !== id && msg.from !== id);
    const storage = m.storage.clone();
    const snap = storage.snapshot();
    const applied = snap.meta.index > 0 ? (JSON.parse(decoder.decode(snap.data)) as { index: number; data: string }[]) : [];
    const node = new RawNode({ ...m.config, applied: snap.meta.index }, storage);
    this.members.set(id, { node, storage, config: m.config, applied, applied_index: snap.meta.index });
    return [];
  }

  status(id: NodeId): string[] {
    const m = this.member(id);
    const s = m.node.status();
    const hs = s.hard_state;
    const out = [
      `${id}: ${s.role} term=${hs.term} vote=${hs.vote} lead=${s.lead} commit=${hs.commit} applied=${s.applied} last=${s.last_index} voters=${s.conf_state.voters.join(',')} learners=${s.conf_state.learners.join(',')}${s.lead_transferee ? ` transferee=${s.lead_transferee}` : ''}`,
    ];
    if (s.role === 'leader') {
      for (const [pid, pr] of [...m.node.raft.tracker.progress].sort((a, b) => a[0] - b[0])) out.push(`  ${pid}: ${pr.describe()}`);
    }
    return out;
  }

  log(id: NodeId): string[] {
    const m = this.member(id);
    const st = m.storage;
    const ents = st.lastIndex() >= st.firstIndex() ? st.entries(st.firstIndex(), st.lastIndex() + 1, Number.MAX_SAFE_INTEGER) : [];
    return [`${id} log: first=${st.firstIndex()} [${formatEntries(ents)}]`, `${id} applied: [${m.applied.map((a) => a.data).join(',')}]`];
  }

  /** Fails the trace (even when rewriting) unless the member's status has these fields. */
  check(id: NodeId, want: Record<string, string>): string[] {
    const s = this.member(id).node.status();
    const have: Record<string, string> = {
      role: s.role,
      term: String(s.hard_state.term),
      vote: String(s.hard_state.vote),
      lead: String(s.lead),
      commit: String(s.hard_state.commit),
      applied: String(s.applied),
      last: String(s.last_index),
      voters: s.conf_state.voters.join(','),
      learners: s.conf_state.learners.join(','),
    };
    for (const [k, v] of Object.entries(want)) {
      assert(k in have, `check: unknown field ${k}`);
      if (have[k] !== v) throw new Error(`check ${id}: ${k} is ${have[k]}, expected ${v}`);
    }
    return ['ok'];
  }
}
