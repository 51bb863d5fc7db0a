/**
 * Raft core throughput: proposals committed per second by one process driving 1 or 3 members of the
 * real core over an in-memory network (delivery is immediate, storage is MemoryStorage). This is the
 * core's own cost: no fsync, no sockets, no encoding. Proposals are batched (group commit): `batch`
 * payloads go in one proposeBatch before each Ready round, so they travel in one append per follower
 * and are persisted by one Ready. Batch 1 is one propose per round trip.
 *
 *   npx tsx bench/raft-throughput.ts            prints a table, writes bench/results/raft-throughput.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryStorage, RawNode, bootstrap } from '../src/log/raft/index.js';
import type { Message, NodeId } from '../src/log/raft/index.js';

/** Payload of each proposal: small, like a compact event. */
const ENTRY_BYTES = 16;
/** Entries per measured run: enough for a run to last a good fraction of a second. */
const ENTRIES_PER_RUN_UNBATCHED = 200_000;
const ENTRIES_PER_RUN_BATCHED = 1_000_000;
/** Compact the log behind the applied index every this many entries, as a driver would. */
const COMPACT_EVERY_ENTRIES = 50_000;
/** The core must sustain at least this many small entries per second on its own (one member). */
const FLOOR_ENTRIES_PER_SEC = 200_000;

interface Member {
  node: RawNode;
  storage: MemoryStorage;
  applied: number;
}

function cluster(size: number): Map<NodeId, Member> {
  const ids = Array.from({ length: size }, (_, k) => k + 1);
  const members = new Map<NodeId, Member>();
  for (const id of ids) {
    const storage = new MemoryStorage();
    bootstrap(storage, ids);
    const node = new RawNode({ id, election_ticks: 10, heartbeat_ticks: 1, random_int: () => 0, inflight_msgs_max: 1024 }, storage);
    members.set(id, { node, storage, applied: 0 });
  }
  return members;
}

/** Runs Readies and delivers messages until every member is quiet. */
function settle(members: Map<NodeId, Member>): void {
  let inbox: Message[] = [];
  for (;;) {
    let moved = false;
    for (const m of members.values()) {
      if (!m.node.hasReady()) continue;
      moved = true;
      const rd = m.node.ready();
      if (rd.snapshot) m.storage.applySnapshot(rd.snapshot);
      m.storage.append(rd.entries);
      if (rd.hard_state) m.storage.setHardState(rd.hard_state);
      for (const msg of rd.messages) inbox.push(msg);
      const last = rd.committed_entries[rd.committed_entries.length - 1];
      if (last) m.applied = last.index;
      m.node.advance();
      if (m.applied - m.storage.firstIndex() > COMPACT_EVERY_ENTRIES) {
        m.storage.createSnapshot(m.applied, m.node.confState(), new Uint8Array());
        m.storage.compact(m.applied);
      }
    }
    const batch = inbox;
    inbox = [];
    for (const msg of batch) members.get(msg.to)!.node.step(msg);
    if (!moved && batch.length === 0) return;
  }
}

interface Row {
  members: number;
  batch: number;
  entries: number;
  seconds: number;
  entries_per_sec: number;
}

function measure(size: number, batch: number): Row {
  const members = cluster(size);
  settle(members);
  const leader = members.get(1)!;
  leader.node.campaign();
  settle(members);
  if (leader.node.status().role !== 'leader') throw new Error('member 1 did not become leader');
  const payload = new Uint8Array(ENTRY_BYTES);
  const start_applied = leader.applied;
  const target = start_applied + (batch === 1 ? ENTRIES_PER_RUN_UNBATCHED : ENTRIES_PER_RUN_BATCHED);
  const t0 = performance.now();
  const payloads = Array.from({ length: batch }, () => payload);
  while (leader.applied < target) {
    const r = batch === 1 ? leader.node.propose(payload) : leader.node.proposeBatch(payloads);
    if (!r.ok) throw new Error(`proposal refused: ${r.refusal}`);
    settle(members);
  }
  const seconds = (performance.now() - t0) / 1000;
  const entries = leader.applied - start_applied;
  return { members: size, batch, entries, seconds, entries_per_sec: Math.round(entries / seconds) };
}

const rows: Row[] = [];
for (const batch of [1, 16, 256, 1024]) {
  for (const size of [1, 3]) {
    measure(size, batch); // warm-up: let the JIT settle before the measured run
    rows.push(measure(size, batch));
  }
}

console.log('Raft core throughput: entries committed per second (one process, in-memory storage and network, 16-byte entries)');
console.log('batch | 1 member   | 3 members');
console.log('------|------------|-----------');
const fmt = (n: number | undefined): string => (n === undefined ? '-' : n.toLocaleString('en-US')).padStart(10);
for (const batch of [...new Set(rows.map((r) => r.batch))]) {
  const one = rows.find((r) => r.batch === batch && r.members === 1)?.entries_per_sec;
  const three = rows.find((r) => r.batch === batch && r.members === 3)?.entries_per_sec;
  console.log(`${String(batch).padStart(5)} | ${fmt(one)} | ${fmt(three)}`);
}

const best_single = Math.max(...rows.filter((r) => r.members === 1).map((r) => r.entries_per_sec));
const out = join(dirname(new URL(import.meta.url).pathname), 'results', 'raft-throughput.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    { benchmark: 'raft-throughput', entry_bytes: ENTRY_BYTES, node: process.version, floor_entries_per_sec: FLOOR_ENTRIES_PER_SEC, best_single_member_entries_per_sec: best_single, rows },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${out}`);
if (best_single < FLOOR_ENTRIES_PER_SEC) {
  console.error(`below the floor: ${best_single} < ${FLOOR_ENTRIES_PER_SEC} entries/s`);
  process.exitCode = 1;
}
