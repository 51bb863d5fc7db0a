import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinMembers } from '../../src/cli/cluster-command.js';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { allMatched, leaderOf, new_format, old_format, rest, until, UpgradeGroup, version } from './upgrade-group.js';
import { WriteLoad } from './write-load.js';

const log = (line: string): void => void process.stderr.write(`abandoned upgrade: ${line}\n`);

async function keys(m: MemberProcess, label: string): Promise<Set<string>> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: `MATCH (n:${label}) RETURN n.k AS k`, readPreference: 'READ_PREFERENCE_SECONDARY' });
  if (r.status !== 200) throw new Error(`query answered ${r.status}`);
  const rows = (r.json.rows ?? []) as { values: { stringValue?: string }[] }[];
  return new Set(rows.map((row) => row.values[0]?.stringValue ?? ''));
}

/**
 * SPEC 9.6 on three `weft serve` processes: one member is updated, then the move is abandoned before
 * the new version is recorded. The old release refuses the directory the new one opened (and leaves
 * it as it is); the member is removed, wiped, and added back at the old version. The group writes
 * throughout and ends with every member at the old version.
 */
describe('abandoning an upgrade (SPEC 9.6)', () => {
  it('refuses the newer directory to the old release, then removes, wipes and re-adds the member at the old version', async () => {
    const g = await UpgradeGroup.start(3, log);
    const load = new WriteLoad(() => g.running(), 'A');
    try {
      await allMatched(g, old_format, 3);
      const leader = await until(() => leaderOf(g.member(1)), 'a leader is known');
      const updated = [1, 2, 3].find((id) => id !== leader)!;
      load.start();
      await until(async () => (load.acked.length >= 10 ? true : undefined), 'the load writes');

      // One member runs the new release: read-only, its group still at the old version.
      await g.update(updated, new_format);
      await until(async () => ((await version(g.member(updated))).read_only?.behind === false ? true : undefined), `member ${updated} is read-only`);
      expect(readFileSync(join(g.dataDir(updated), 'ENGINE_FORMAT'), 'utf8').trim()).toBe(String(new_format));

      // The old release never opens a directory a newer one opened: refused by name, left untouched.
      await g.halt(updated);
      const listing = (): string[] => ['ENGINE_FORMAT', 'LOCK', 'log', 'checkpoints'].filter((f) => existsSync(join(g.dataDir(updated), f)));
      const before = listing();
      const refusal = await g.launch(updated, old_format, false).then(
        () => undefined,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      expect(refusal).toMatch(/ENGINE_FORMAT_MISMATCH|has engine format 2; this release opens only format 1/);
      expect(readFileSync(join(g.dataDir(updated), 'ENGINE_FORMAT'), 'utf8').trim()).toBe(String(new_format));
      expect(listing()).toEqual(before);

      // Remove it, wipe it, add it back at the old version under a new identity.
      const removed = await fetch(`http://${g.member(leader).rest}/v1/admin/cluster/nodes/${updated}`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) });
      expect(removed.status, await removed.text()).toBe(200);
      rmSync(g.dataDir(updated), { recursive: true, force: true });
      mkdirSync(g.dataDir(updated), { recursive: true });
      await g.reissue(updated, `spiffe://upgrade.weft/member/${updated}/rejoined`);
      await g.launch(updated, old_format, true);
      expect(await joinMembers(g.member(leader).rest, [{ node_id: updated, peer: g.peer(updated), identity: g.identity(updated) }], log)).toBe(true);

      await allMatched(g, old_format, 3);
      await until(async () => (load.acked.length >= 40 ? true : undefined), 'the load writes on');
      await load.stop();
      log(`writes: ${load.attempts.length} attempted, ${load.acked.length} acknowledged; pauses: ${load.pauses().map((p) => `${p.to_ms - p.from_ms} ms`).join(', ') || 'none'}`);
      const held = await until(async () => {
        const k = await keys(g.member(updated), 'A');
        return load.acked.every((a) => k.has(a)) ? k : undefined;
      }, `the re-added member ${updated} holds every acknowledged write`);
      expect(load.acked.filter((a) => !held.has(a))).toEqual([]);
    } finally {
      await load.stop();
      await g.stop();
    }
  }, 120_000);
});
