import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { ClusterService, JoinPhase } from '../../src/gen/weft/v1/cluster_pb.js';
import { MemoryHub } from '../support/memory-transport.js';
import { connect } from '../../src/client/index.js';
import { identity, rest, startMember } from './servers.js';
import { until } from './support.js';

/** Three whole servers in this process, their peers over the in-memory transport, called over REST. */
let servers: RunningServer[] = [];
let root = '';
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.stop();
  if (root !== '') rmSync(root, { recursive: true, force: true });
  root = '';
});

async function start(hub: MemoryHub, id: number, join_wait: boolean): Promise<RunningServer> {
  const s = await startMember(hub, root, id, join_wait);
  servers.push(s);
  return s;
}

describe('ClusterService and forwarding over REST', () => {
  it('JoinNode grows the group; a follower forwards writes to the leader; GetClusterStatus reports every member', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-cluster-service-'));
    const hub = new MemoryHub();
    const one = await start(hub, 1, false);
    const two = await start(hub, 2, true);
    const three = await start(hub, 3, true);
    for (const id of [2, 3]) {
      const joined = await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: String(id), address: `mem:${id}`, nodeIdentity: identity(id) });
      expect(joined).toMatchObject({ status: 200, json: { nodeId: String(id), status: 'JOIN_INITIATED' } });
      await until(() => one.db.log.membership.conf_state.voters.includes(id), `member ${id} promoted`);
    }
    // Errors are clear: a node_id already in use, an identity already bound.
    const dup = await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: '2', address: 'mem:9', nodeIdentity: identity(9) });
    expect(dup).toMatchObject({ status: 409, json: { code: 'ALREADY_EXISTS', reason: 'NODE_ID_IN_USE' } });
    const taken = await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: '9', address: 'mem:9', nodeIdentity: identity(3) });
    expect(taken).toMatchObject({ status: 409, json: { reason: 'IDENTITY_IN_USE' } });

    // A write sent to a follower is carried out by the leader and answered with its result.
    await until(() => two.db.log.leaderId === 1, 'member 2 follows member 1');
    const created = await rest(two, 'POST', '/v1/graph/nodes', { labels: ['Person'], properties: { name: { stringValue: 'Ada' } } });
    expect(created.status).toBe(200);
    const cypher = await rest(three, 'POST', '/v1/query/cypher', { query: "CREATE (:Person {name: 'Bob'})" });
    expect(cypher.status).toBe(200);
    await until(() => two.db.committedIndex >= one.db.committedIndex && three.db.committedIndex >= one.db.committedIndex, 'every member applied both');
    for (const s of [one, two, three]) {
      const names = [...s.db.latestCommitted().nodesWithLabel('Person')].map((n) => n.props.get('name')).sort();
      expect(names).toEqual(['Ada', 'Bob']);
    }
    // A read with SECONDARY preference is served by the follower itself, from its applied state.
    const count = { query: 'MATCH (p:Person) RETURN count(p) AS n' };
    const local = await rest(two, 'POST', '/v1/query/cypher', { ...count, readPreference: 'READ_PREFERENCE_SECONDARY' });
    expect(local.json.stats).toMatchObject({ servedByLeader: false });
    expect(Number((local.json.stats as { appliedIndex: string }).appliedIndex)).toBeGreaterThan(0);
    // PRIMARY (the default) and LINEARIZABLE reads sent to a follower are answered by the leader.
    const primary = await rest(two, 'POST', '/v1/query/cypher', count);
    expect(primary.json.stats).toMatchObject({ servedByLeader: true });
    const linear = await rest(three, 'POST', '/v1/query/cypher', {
      ...count,
      readPreference: 'READ_PREFERENCE_SECONDARY',
      readConcern: { level: 'READ_CONCERN_LEVEL_LINEARIZABLE' },
    });
    expect(linear.status, JSON.stringify(linear.json)).toBe(200);
    expect(linear.json.stats).toMatchObject({ servedByLeader: true });
    // after_index is a causal fence on any member: the follower answers once it applied that index.
    const fenced = await rest(three, 'POST', '/v1/query/cypher', {
      ...count,
      readPreference: 'READ_PREFERENCE_SECONDARY',
      readConcern: { level: 'READ_CONCERN_LEVEL_MAJORITY', afterIndex: String(one.db.committedIndex) },
    });
    expect(fenced.status, JSON.stringify(fenced.json)).toBe(200);
    expect(Number((fenced.json.stats as { appliedIndex: string }).appliedIndex)).toBeGreaterThanOrEqual(one.db.committedIndex);

    // An interactive transaction opened on a follower runs whole on the leader.
    const begun = await rest(three, 'POST', '/v1/query/transaction/begin', {});
    expect(begun.status, JSON.stringify(begun.json)).toBe(200);
    const transactionId = begun.json.transactionId as string;
    const inTx = await rest(three, 'POST', '/v1/query/cypher', { query: "CREATE (:Person {name: 'Cy'})", transactionId });
    expect(inTx.status, JSON.stringify(inTx.json)).toBe(200);
    const committed = await rest(three, 'POST', '/v1/query/transaction/commit', { transactionId });
    expect(committed.status, JSON.stringify(committed.json)).toBe(200);
    await until(() => [...three.db.latestCommitted().nodesWithLabel('Person')].length === 3, 'the transaction reached member 3');

    const status = await rest(three, 'GET', '/v1/admin/cluster/status');
    expect(status.status).toBe(200);
    expect(status.json.leaderId).toBe('1');
    expect(status.json.deployment).toBe(Buffer.from(one.db.deployment).toString('hex'));
    const nodes = status.json.nodes as { nodeId: string; role: string; state: string; nodeIdentity: string; address: string }[];
    expect(nodes.map((n) => [n.nodeId, n.role, n.address, n.nodeIdentity])).toEqual([
      ['1', 'NODE_ROLE_LEADER', 'mem:1', identity(1)],
      ['2', 'NODE_ROLE_FOLLOWER', 'mem:2', identity(2)],
      ['3', 'NODE_ROLE_FOLLOWER', 'mem:3', identity(3)],
    ]);
    // Health is a live measure (recent contact, lag): on a loaded machine a follower may be a beat behind, so the
    // leader is asked until it reports every member HEALTHY, within a bounded wait.
    let states: string[] = nodes.map((n) => n.state);
    const healthyBy = Date.now() + 10_000;
    while (!states.every((s) => s === 'NODE_STATE_HEALTHY') && Date.now() < healthyBy) {
      await new Promise((r) => setTimeout(r, 50));
      states = ((await rest(three, 'GET', '/v1/admin/cluster/status')).json.nodes as { state: string }[]).map((n) => n.state);
    }
    expect(states).toEqual(['NODE_STATE_HEALTHY', 'NODE_STATE_HEALTHY', 'NODE_STATE_HEALTHY']);

    // A member that stops answering is reported DOWN by the leader within an election timeout.
    hub.isolate('mem:3');
    let seen = '';
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const s = (await rest(one, 'GET', '/v1/admin/cluster/status')).json.nodes as { nodeId: string; state: string }[];
      seen = s.find((n) => n.nodeId === '3')!.state;
      if (seen === 'NODE_STATE_DOWN') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('NODE_STATE_DOWN');
    hub.heal('mem:3');

    // AddNode is retired; decommissioning keeps at least two voters.
    expect((await rest(one, 'POST', '/v1/admin/cluster/nodes', { address: 'x:1' })).json).toMatchObject({ code: 'UNIMPLEMENTED' });
    const gone = await rest(one, 'POST', '/v1/admin/cluster/decommission', { nodeId: '3', pruning: true });
    expect(gone).toMatchObject({ status: 200, json: { nodeId: '3', operatorCleanupRequired: true } });
    expect(one.db.log.membership.conf_state.voters).toEqual([1, 2]);
    const gate = await rest(one, 'POST', '/v1/admin/cluster/decommission', { nodeId: '2' });
    expect(gate).toMatchObject({ json: { code: 'FAILED_PRECONDITION', reason: 'QUORUM_GATE' } });
    const back = await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: '4', address: 'mem:3', nodeIdentity: identity(3) });
    expect(back).toMatchObject({ json: { code: 'FAILED_PRECONDITION', reason: 'IDENTITY_DEPARTED' } });
  });

  it('JoinProgress streams the phases of a join until COMPLETE, then answers NOT_FOUND', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-join-progress-'));
    const hub = new MemoryHub();
    const one = await start(hub, 1, false);
    await start(hub, 2, true);
    const client = createGrpcClient(ClusterService, `127.0.0.1:${one.ports.grpc}`);
    try {
      await expect(client.joinProgress({ nodeId: 2n }, { timeout_ms: 5000 })[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await client.joinNode({ nodeId: 2n, address: 'mem:2', nodeIdentity: identity(2) }, { timeout_ms: 5000 });
      const phases: JoinPhase[] = [];
      for await (const status of client.joinProgress({ nodeId: 2n }, { timeout_ms: 20_000 })) {
        expect(status.nodeId).toBe(2n);
        if (phases[phases.length - 1] !== status.phase) phases.push(status.phase);
      }
      expect(phases[phases.length - 1]).toBe(JoinPhase.COMPLETE);
      expect(phases.every((p) => [JoinPhase.LEARNER, JoinPhase.READY_CHECK, JoinPhase.PROMOTING, JoinPhase.COMPLETE].includes(p))).toBe(true);
      await expect(client.joinProgress({ nodeId: 2n }, { timeout_ms: 5000 })[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(one.db.log.membership.conf_state.voters).toEqual([1, 2]);
    } finally {
      client.close();
    }
  });

  it('DecommissionNode of the leader itself moves leadership first; the new leader removes it', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-decommission-'));
    const hub = new MemoryHub();
    const one = await start(hub, 1, false);
    const two = await start(hub, 2, true);
    const three = await start(hub, 3, true);
    for (const id of [2, 3]) {
      await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: String(id), address: `mem:${id}`, nodeIdentity: identity(id) });
      await until(() => one.db.log.membership.conf_state.voters.includes(id), `member ${id} promoted`);
    }
    const forced = await rest(one, 'POST', '/v1/admin/cluster/decommission', { nodeId: '2', force: true });
    expect(forced).toMatchObject({ json: { code: 'INVALID_ARGUMENT' } });
    const out = await rest(one, 'POST', '/v1/admin/cluster/decommission', { nodeId: '1' });
    expect(out.status, JSON.stringify(out.json)).toBe(200);
    const survivors = [two, three];
    await until(() => survivors.some((s) => s.db.log.acceptsWrites && !s.db.log.membership.conf_state.voters.includes(1)), 'member 1 is removed by the new leader');
    const leader = survivors.find((s) => s.db.log.acceptsWrites)!;
    expect(leader.db.log.membership.conf_state.voters).toEqual([2, 3]);
    const write = await rest(leader, 'POST', '/v1/graph/nodes', { labels: ['Person'], properties: {} });
    expect(write.status).toBe(200);
  });
});

describe('client addresses: every member announces where clients reach it', () => {
  it('GetClusterStatus on any member names each member gRPC and REST address; the SDK dials the leader there and follows it to the next leader', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-client-addresses-'));
    const hub = new MemoryHub();
    const one = await start(hub, 1, false);
    const two = await start(hub, 2, true);
    const three = await start(hub, 3, true);
    const grpcOf = (s: RunningServer): string => `127.0.0.1:${s.ports.grpc}`;
    const restOf = (s: RunningServer): string => `127.0.0.1:${s.ports.rest}`;
    // Member 3's JoinNode names its addresses; member 2's does not: each announces its own once joined.
    await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: '2', address: 'mem:2', nodeIdentity: identity(2) });
    await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: '3', address: 'mem:3', nodeIdentity: identity(3), grpcAddress: grpcOf(three), restAddress: restOf(three) });
    await until(() => one.db.log.membership.conf_state.voters.length === 3, 'members 2 and 3 are voters');

    for (const asked of [one, two, three]) {
      const status = await rest(asked, 'GET', '/v1/admin/cluster/status');
      const nodes = status.json.nodes as { nodeId: string; grpcAddress: string; restAddress: string }[];
      expect(nodes.map((n) => [n.nodeId, n.grpcAddress, n.restAddress])).toEqual([
        ['1', grpcOf(one), restOf(one)],
        ['2', grpcOf(two), restOf(two)],
        ['3', grpcOf(three), restOf(three)],
      ]);
    }

    // A follower's NOT_LEADER names the leader where clients reach it, not its peer address.
    for (const follower of [two, three]) {
      await until(() => follower.db.log.notLeader().metadata.leader_addr === grpcOf(one), `member ${follower.db.log.nodeId} names the leader's gRPC address`);
      expect(follower.db.log.notLeader().metadata.leader_id).toBe('1');
    }

    // A client given only a follower dials the leader itself.
    const client = connect([grpcOf(two)], { failover_ms_max: 20_000 });
    try {
      expect(await client.leader()).toMatchObject({ leader_id: '1', entry: grpcOf(one) });
      await client.createNode(['Before']);

      // The leader stops; the client follows the next leader to its own address.
      servers.splice(servers.indexOf(one), 1);
      await one.stop();
      await until(() => two.db.log.acceptsWrites || three.db.log.acceptsWrites, 'a new leader is elected');
      await client.createNode(['After']);
      const next = two.db.log.acceptsWrites ? two : three;
      expect((await client.leader()).entry).toBe(grpcOf(next));
      const other = next === two ? three : two;
      await until(() => other.db.log.notLeader().metadata.leader_addr === grpcOf(next), 'the other follower names the new leader');
      // The stopped member is reported where it was last seen.
      const nodes = (await rest(next, 'GET', '/v1/admin/cluster/status')).json.nodes as { nodeId: string; grpcAddress: string }[];
      expect(nodes.find((n) => n.nodeId === '1')?.grpcAddress).toBe(grpcOf(one));
    } finally {
      client.close();
    }
  });
});
