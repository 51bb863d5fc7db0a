import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { Members } from '../../src/client/members.js';
import { WeftError } from '../../src/common/errors.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

/**
 * How the SDK picks a member among several: a client handed a dead address and a live one finds the
 * live one and the leader it names; reads are repeated past the dead member, a statement that may
 * write is not; NOT_LEADER's metadata teaches it the leader's id.
 */

/** A loopback address nothing listens on: a port the OS gave out, then closed again. */
async function deadAddress(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((r) => s.close(() => r()));
  return `127.0.0.1:${port}`;
}

describe('SDK member routing', () => {
  let dir: string;
  let server: RunningServer;
  let live: string;
  let dead: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-sdk-members-'));
    server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    live = `127.0.0.1:${server.ports.grpc}`;
    dead = await deadAddress();
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client given a dead member first and a live one learns the leader from the live one and writes through it', async () => {
    const db = connect([dead, live], { retry_wait_ms: 10 });
    try {
      const view = await db.leader();
      expect(view).toMatchObject({ leader_id: '1', entry: live });
      expect(view.raft_term).toBeGreaterThan(0n);
      await db.createNode(['City'], { name: 'Lyon' });
      // SECONDARY_PREFERRED goes round the members; the turn that meets the dead one is sent on.
      for (let i = 0; i < 4; i++) {
        const { rows } = await db.query<{ n: bigint | number }>('MATCH (c:City) RETURN count(c) AS n', {}, { readPreference: 'SECONDARY_PREFERRED' });
        expect(Number(rows[0]?.n)).toBe(1);
      }
    } finally {
      db.close();
    }
  });

  it('with only a dead member, a statement that may write fails at once; a read is retried until failover_ms_max and then fails', async () => {
    const db = connect(dead, { retry_wait_ms: 10, failover_ms_max: 300 });
    try {
      await expect(db.query("CREATE (:City {name: 'Nantes'})")).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      await expect(db.query('MATCH (c:City) RETURN c', {}, { readPreference: 'PRIMARY' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      db.close();
    }
    // The write that failed was never sent anywhere else.
    const check = connect(live);
    try {
      const { rows } = await check.query<{ n: bigint | number }>("MATCH (c:City {name: 'Nantes'}) RETURN count(c) AS n");
      expect(Number(rows[0]?.n)).toBe(0);
    } finally {
      check.close();
    }
  });

  it('NOT_LEADER metadata names the leader; any member failure makes the next call ask the members again', async () => {
    const members = new Members([live, dead], 1024 * 1024);
    try {
      members.failed(new WeftError('UNAVAILABLE', 'member 2 does not lead', 'NOT_LEADER', { leader_id: '3', leader_addr: '127.0.0.1:1' }));
      expect(members.view.leader_id).toBe('3');
      // Discovery asks the live member: it leads itself, so the learned id is corrected to 1.
      expect((await members.discover()).leader_id).toBe('1');
      expect(members.view.entry).toBe(live);
    } finally {
      members.close();
    }
  });
});
