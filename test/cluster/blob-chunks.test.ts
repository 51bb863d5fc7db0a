import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { MemoryHub } from '../support/memory-transport.js';
import { chunksInPacks } from '../support/packs-on-disk.js';
import { prng, testSeed } from '../support/prng.js';
import { identity, rest, startMember } from './servers.js';
import { until } from './support.js';

/**
 * Blob chunks live outside the log: a `blob_put` entry reaches every member by replication, its
 * chunk files only the member that took the upload. Every member fetches the chunks its blobs
 * reference from its peers, in the background and at once when a download needs one.
 */
let servers: RunningServer[] = [];
let root = '';
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.stop();
  if (root !== '') rmSync(root, { recursive: true, force: true });
  root = '';
});

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function download(s: RunningServer, blob_id: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(`http://127.0.0.1:${s.ports.rest}/v1/blobs/${blob_id}`, { headers: { accept: 'application/octet-stream' }, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe('blob chunks between members', () => {
  it('a blob uploaded to the leader is downloaded whole from a follower, and every follower comes to hold its chunks', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-blob-chunks-'));
    const hub = new MemoryHub();
    const one = await startMember(hub, root, 1, false);
    servers.push(one);
    const two = await startMember(hub, root, 2, true);
    servers.push(two);
    const three = await startMember(hub, root, 3, true);
    servers.push(three);
    for (const id of [2, 3]) {
      await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: String(id), address: `mem:${id}`, nodeIdentity: identity(id) });
      await until(() => one.db.log.membership.conf_state.voters.includes(id), `member ${id} promoted`);
    }

    // Five chunks of 256 KiB and a tail, from a seeded generator; the upload goes to the leader.
    const random = prng(testSeed('blob chunks between members'));
    const data = Buffer.alloc(5 * 256 * 1024 + 12_345);
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
    const up = await fetch(`http://127.0.0.1:${one.ports.rest}/v1/blobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
      signal: AbortSignal.timeout(10_000),
    });
    expect(up.status).toBe(200);
    const { blobId: blob_id, chunkIds: chunk_ids } = (await up.json()) as { blobId: string; chunkIds: string[] };
    expect(chunk_ids.length).toBe(6);
    await until(() => two.db.sm.blobs.blob(blob_id) !== undefined && three.db.sm.blobs.blob(blob_id) !== undefined, 'the blob_put entry reached both followers');

    // A download from a follower gets every byte, whether or not the background fill got there first.
    const got = await download(two, blob_id);
    expect(got.status).toBe(200);
    expect(sha256(got.body)).toBe(sha256(data));

    // Both followers come to hold every chunk in their own stores, checked against its name.
    await until(
      () => [2, 3].every((id) => chunk_ids.every((c) => chunksInPacks(join(root, `member-${id}`)).has(c))),
      'both followers hold every chunk',
    );
    // Uploads are the leader's (its chunks are durable before the entry naming them is proposed): a
    // follower refuses one as NOT_LEADER, naming where the leader takes it.
    await until(() => two.db.log.notLeader().metadata.leader_addr === `127.0.0.1:${one.ports.grpc}`, "member 2 knows the leader's client address");
    const refused = await fetch(`http://127.0.0.1:${two.ports.rest}/v1/blobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: data.subarray(0, 10_000),
      signal: AbortSignal.timeout(10_000),
    });
    const refusal = (await refused.json()) as { reason: string; metadata: Record<string, string> };
    expect([refused.status, refusal.reason, refusal.metadata]).toEqual([503, 'NOT_LEADER', { leader_id: '1', leader_addr: `127.0.0.1:${one.ports.grpc}` }]);

    // With the leader gone, the rest of the group still serves the blob from its own copies.
    servers.splice(servers.indexOf(one), 1);
    await one.stop();
    const after = await download(three, blob_id);
    expect(after.status).toBe(200);
    expect(sha256(after.body)).toBe(sha256(data));
  });
});
