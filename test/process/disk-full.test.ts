import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authorityFiles } from '../../src/cli/certs-command.js';
import { startLocalCluster } from '../../src/cli/cluster-command.js';
import { type MemberProcess, startMemberProcess } from '../../src/cli/member-process.js';
import { groupStatus, rest, until, votersReady } from '../support/group-rest.js';
import { sample, scrape } from '../support/metrics-text.js';
import { emptySmallDisk, fillSmallDisk, mountSmallDisk, unmountSmallDisk } from '../support/small-disk.js';

/**
 * A member whose disk fills (docs/cluster.md, "A full disk"), as real processes: member 1's data
 * directory is a tmpfs of 48 MiB, filled by a file until the kernel refuses more. The member must
 * acknowledge nothing it did not make durable, say so (/ready, /metrics, a line on stderr, DISK_FULL
 * to a write it cannot take), give up leadership, and come back by itself once the file is removed;
 * no acknowledged write may be missing from any member, before or after a kill -9.
 */
const tick_ms = 50;
const disk_bytes = 48 * 1024 * 1024;
/** Small segments: the log needs new pages (and new segments) soon after the disk fills. */
const member_args = ['--tick-ms', String(tick_ms), '--log-segment-bytes-max', String(1024 * 1024)];
/** Each write carries this much, so a few dozen need pages the full disk does not have. */
const pad = 'x'.repeat(8 * 1024);
/** A write stalled behind the full disk is given up by the client after this; its outcome is unknown. */
const write_wait_ms = 3_000;

type Outcome = { readonly kind: 'ok' } | { readonly kind: 'refused'; readonly reason: string } | { readonly kind: 'unknown' };

async function writeItem(m: MemberProcess, k: number): Promise<Outcome> {
  try {
    const r = await rest(m, 'POST', '/v1/graph/nodes', { labels: ['Item'], properties: { k: { intValue: k }, pad: { stringValue: pad } } }, write_wait_ms);
    if (r.status === 200) return { kind: 'ok' };
    return { kind: 'refused', reason: String(r.json['reason'] ?? r.status) };
  } catch {
    return { kind: 'unknown' };
  }
}

/** The k of every Item `m` holds, read from its own committed state. */
async function itemsOn(m: MemberProcess): Promise<Set<number>> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: 'MATCH (i:Item) RETURN i.k AS k', readPreference: 'READ_PREFERENCE_SECONDARY' });
  if (r.status !== 200) throw new Error(`read on member ${m.node_id}: ${r.status}`);
  const rows = (r.json['rows'] ?? []) as { values: { intValue?: string | number }[] }[];
  return new Set(rows.map((row) => Number(row.values[0]?.intValue)));
}

async function holdsAll(m: MemberProcess, acked: ReadonlySet<number>): Promise<true | undefined> {
  const held = await itemsOn(m);
  for (const k of acked) if (!held.has(k)) return undefined;
  return true;
}

async function ready(m: MemberProcess): Promise<{ status: number; reason: string }> {
  const res = await fetch(`http://${m.ops}/ready`, { signal: AbortSignal.timeout(5_000) });
  const body = (await res.json()) as { reason?: string };
  return { status: res.status, reason: body.reason ?? '' };
}

describe('a member whose disk fills', () => {
  it('leading a group of three: it acknowledges nothing it could not write, hands over leadership, reports it, and recovers when space returns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-disk-full-'));
    const disk = join(dir, 'member-1');
    mountSmallDisk(disk, disk_bytes);
    const cluster = await startLocalCluster({ members: 3, dir, args: member_args });
    const extra: MemberProcess[] = [];
    try {
      expect(cluster.joined).toBe(true);
      const [one, two, three] = cluster.members as [MemberProcess, MemberProcess, MemberProcess];
      await votersReady(one, 3);
      const acked = new Set<number>();
      let k = 0;
      const writeTo = async (m: MemberProcess): Promise<Outcome> => {
        const key = ++k;
        const out = await writeItem(m, key);
        if (out.kind === 'ok') acked.add(key);
        return out;
      };
      for (let i = 0; i < 10; i++) expect((await writeTo(one)).kind).toBe('ok');

      fillSmallDisk(disk);
      // Writes go on through every member; the leader's log needs pages it cannot have.
      const refusals = new Set<string>();
      await until(async () => {
        for (const m of [one, two, three]) {
          const out = await writeTo(m);
          if (out.kind === 'refused') refusals.add(out.reason);
        }
        return (await ready(one)).status === 503 ? true : undefined;
      }, 'member 1 reports its disk full', 60_000);
      const said = await ready(one);
      expect(said.reason).toMatch(/^disk full: .*ENOSPC/);
      const metrics = await scrape(one.ops);
      expect(sample(metrics, 'graphdb_disk_full')).toBe(1);
      expect(sample(metrics, 'graphdb_log_disk_full_waits_total')).toBeGreaterThanOrEqual(1);
      expect(one.output()).toMatch(/member 1: the disk under .* is full/);

      // It hands leadership over; the group writes on, a write sent to member 1 included (forwarded).
      const moved = await until(async () => {
        const s = await groupStatus(two);
        return s.leaderId !== '' && s.leaderId !== '1' ? s : undefined;
      }, 'another member leads', 60_000);
      await until(async () => ((await writeTo(one)).kind === 'ok' ? true : undefined), 'a write through member 1 is acknowledged');
      for (let i = 0; i < 10; i++) await writeTo(i % 2 === 0 ? two : three);
      // Refusals are typed (DISK_FULL, NOT_LEADER, LEADERSHIP_LOST, a timeout), never an internal fault.
      expect([...refusals]).not.toContain('INTERNAL_ERROR');

      emptySmallDisk(disk);
      await until(async () => ((await ready(one)).status === 200 ? true : undefined), 'member 1 is ready again');
      expect(sample(await scrape(one.ops), 'graphdb_disk_full')).toBe(0);
      expect(one.output()).toMatch(/member 1: space returned/);
      for (let i = 0; i < 10; i++) expect((await writeTo(i % 2 === 0 ? one : two)).kind).toBe('ok');
      for (const m of [one, two, three]) await until(() => holdsAll(m, acked), `member ${m.node_id} holds every acknowledged write`);

      // Its log and checkpoints are whole: killed and restarted, it opens and still holds them all.
      await one.kill();
      const certs = join(dir, 'certs');
      const again = await startMemberProcess({
        node_id: 1,
        data_dir: disk,
        peer_port: Number(one.peer.split(':')[1]),
        args: [...member_args, '--tls-ca-file', authorityFiles(certs).ca_file, '--tls-cert-file', join(certs, 'member-1.crt'), '--tls-key-file', join(certs, 'member-1.key')],
      });
      extra.push(again);
      await until(() => holdsAll(again, acked), 'member 1 holds every acknowledged write after a kill -9');
      expect(moved.leaderId).not.toBe('1');
    } finally {
      await Promise.all(extra.map((m) => m.stop()));
      await cluster.stop();
      unmountSmallDisk(disk);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('alone: a write it cannot make durable is refused DISK_FULL or left unanswered, never acknowledged, and writes resume when space returns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-disk-full-'));
    const disk = join(dir, 'member-1');
    mountSmallDisk(disk, disk_bytes);
    const cluster = await startLocalCluster({ members: 1, dir, args: member_args });
    const extra: MemberProcess[] = [];
    try {
      const [one] = cluster.members as [MemberProcess];
      const acked = new Set<number>();
      for (let k = 1; k <= 10; k++) if ((await writeItem(one, k)).kind === 'ok') acked.add(k);
      expect(acked.size).toBe(10);
      fillSmallDisk(disk);
      let k = 10;
      const refused = await until(async () => {
        const out = await writeItem(one, ++k);
        if (out.kind === 'ok') acked.add(k);
        return out.kind === 'refused' ? out.reason : undefined;
      }, 'a write is refused', 120_000);
      expect(refused).toBe('DISK_FULL');
      expect((await ready(one)).status).toBe(503);
      // Nothing written since the disk filled is acknowledged while it stays full.
      const before = acked.size;
      for (let i = 0; i < 3; i++) expect((await writeItem(one, ++k)).kind).not.toBe('ok');
      expect(acked.size).toBe(before);

      emptySmallDisk(disk);
      await until(async () => ((await ready(one)).status === 200 ? true : undefined), 'the member is ready again');
      for (let i = 0; i < 5; i++) {
        const key = ++k;
        expect((await writeItem(one, key)).kind).toBe('ok');
        acked.add(key);
      }
      await until(() => holdsAll(one, acked), 'the member holds every acknowledged write');
      await one.kill();
      const certs = join(dir, 'certs');
      const again = await startMemberProcess({
        node_id: 1,
        data_dir: disk,
        peer_port: Number(one.peer.split(':')[1]),
        args: [...member_args, '--tls-ca-file', authorityFiles(certs).ca_file, '--tls-cert-file', join(certs, 'member-1.crt'), '--tls-key-file', join(certs, 'member-1.key')],
      });
      extra.push(again);
      await until(() => holdsAll(again, acked), 'every acknowledged write is there after a kill -9');
    } finally {
      await Promise.all(extra.map((m) => m.stop()));
      await cluster.stop();
      unmountSmallDisk(disk);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
