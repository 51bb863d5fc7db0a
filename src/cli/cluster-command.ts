import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restCall } from '../api/rest-client.js';
import { isWeftError, invalidArgument } from '../common/errors.js';
import { ClusterService } from '../gen/weft/v1/cluster_pb.js';
import { default_trust_domain, initAuthority, issueMember, type MemberFiles, parseCommandFlags } from './certs-command.js';
import { freeLoopbackPort, type MemberProcess, startMemberProcess } from './member-process.js';

/**
 * `weft cluster --members N`: a local group on loopback for trying Weft and for tests. It makes a CA
 * and one certificate per member, starts member 1 as a fresh group, starts the others waiting to be
 * joined, joins each through JoinNode on member 1, prints every member's addresses, and on SIGINT or
 * SIGTERM stops them all by pid.
 */
export const cluster_members_max = 9;
const join_timeout_ms = 10_000;

export const cluster_usage = `usage: weft cluster --members N [--dir DIR] [--trust-domain ${default_trust_domain}]
  N from 1 to ${cluster_members_max}; DIR (default: a new temporary directory) holds certs/ and member-K/ data
`;

export interface LocalCluster {
  readonly dir: string;
  readonly members: readonly MemberProcess[];
  readonly identities: readonly string[];
  /** Whether every member past the first was joined; false when this build's leader does not serve JoinNode yet. */
  readonly joined: boolean;
  stop(): Promise<void>;
}

export interface LocalClusterOptions {
  readonly members: number;
  readonly dir?: string;
  readonly trust_domain?: string;
  /** More settings for every member. */
  readonly args?: readonly string[];
  /** Peer port of member K (1-based); free loopback ports by default (the chaos harness points members at its proxies). */
  readonly peer_ports?: readonly number[];
  readonly say?: (line: string) => void;
  /** false: members 2..N are started waiting and left for the caller to join (joinMembers); default true. */
  readonly join?: boolean;
  /** Bound on each member's start (member_start_wait_ms by default): a data directory holding millions of entries loads for longer. */
  readonly start_wait_ms?: number;
}

export async function startLocalCluster(o: LocalClusterOptions): Promise<LocalCluster> {
  if (!Number.isSafeInteger(o.members) || o.members < 1 || o.members > cluster_members_max) {
    throw invalidArgument(`--members must lie in [1, ${cluster_members_max}], got ${o.members}`);
  }
  const say = o.say ?? (() => {});
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'weft-cluster-'));
  const certs = join(dir, 'certs');
  await initAuthority(certs, o.trust_domain ?? default_trust_domain);
  const files: MemberFiles[] = [];
  for (let k = 1; k <= o.members; k++) files.push(await issueMember(certs, k));
  const members: MemberProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(members.map((m) => m.stop()));
  };
  try {
    const start = async (k: number): Promise<MemberProcess> => {
      const tls = files[k - 1]!;
      const data_dir = join(dir, `member-${k}`);
      mkdirSync(data_dir, { recursive: true });
      const member = await startMemberProcess({
        node_id: k,
        data_dir,
        peer_port: o.peer_ports?.[k - 1] ?? (await freeLoopbackPort()),
        args: ['--tls-ca-file', tls.ca_file, '--tls-cert-file', tls.cert_file, '--tls-key-file', tls.key_file, ...(o.args ?? [])],
        // Member 1 forms the group; the others form nothing and wait to be joined (setting join_wait).
        env: k === 1 ? {} : { WEFT_JOIN_WAIT: 'true' },
      }, o.start_wait_ms);
      members.push(member);
      return member;
    };
    await start(1);
    // The waiting members start side by side; a failure of one still leaves the others to be stopped.
    const rest = await Promise.allSettled(Array.from({ length: o.members - 1 }, (_, i) => start(i + 2)));
    const failed = rest.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    members.sort((a, b) => a.node_id - b.node_id);
    if (o.join === false) return { dir, members, identities: files.map((f) => f.identity), joined: false, stop };
    const joined = await joinMembers(members[0]!.rest, members.slice(1).map((m) => ({ node_id: m.node_id, peer: m.peer, identity: files[m.node_id - 1]!.identity })), say);
    return { dir, members, identities: files.map((f) => f.identity), joined, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** A member to be joined: its id, the peer address the leader dials, and the identity it must prove there. */
export interface JoinTarget {
  readonly node_id: number;
  readonly peer: string;
  readonly identity: string;
}

/**
 * JoinNode on the leader (REST at `leader_rest`, host:port) for each target, in order; true when all
 * were joined, false at the first UNIMPLEMENTED (a build whose leader cannot join yet).
 */
export async function joinMembers(leader_rest: string, targets: readonly JoinTarget[], say: (line: string) => void): Promise<boolean> {
  for (const t of targets) {
    try {
      await restCall(`http://${leader_rest}`, ClusterService.method.joinNode, { nodeId: BigInt(t.node_id), address: t.peer, nodeIdentity: t.identity }, { timeout_ms: join_timeout_ms });
      say(`joined member ${t.node_id} (${t.peer}, ${t.identity})`);
    } catch (e) {
      // A leader without the cluster service answers UNIMPLEMENTED, or NOT_FOUND for a route it does not serve.
      if (isWeftError(e) && (e.code === 'UNIMPLEMENTED' || e.code === 'NOT_FOUND')) {
        say(`JoinNode is not available on the leader in this build (${e.code}: ${e.message}); members ${targets.map((x) => x.node_id).join(', ')} run alone and were not joined`);
        return false;
      }
      throw e;
    }
  }
  return true;
}

/** Runs `weft cluster ...` until SIGINT or SIGTERM; returns the exit code. */
export async function clusterCommand(args: readonly string[], out: (line: string) => void): Promise<number> {
  const flags = parseCommandFlags(args);
  const members = Number(flags.get('members') ?? '3');
  const dir = flags.get('dir');
  const trust_domain = flags.get('trust-domain');
  const cluster = await startLocalCluster({ members, ...(dir !== undefined ? { dir } : {}), ...(trust_domain !== undefined ? { trust_domain } : {}), say: out });
  out(`cluster directory ${cluster.dir}`);
  for (const m of cluster.members) {
    out(`member ${m.node_id}  REST ${m.rest}  gRPC ${m.grpc}  ops ${m.ops}  peer ${m.peer}  pid ${m.pid}  ${cluster.identities[m.node_id - 1]}`);
  }
  out('Ctrl-C stops every member');
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (why: string): void => {
      if (stopping) return;
      stopping = true;
      out(`${why}: stopping ${cluster.members.map((m) => m.pid).join(', ')}`);
      void cluster.stop().then(() => resolve(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    for (const m of cluster.members) {
      void m.exited.then((code) => {
        if (!stopping) out(`member ${m.node_id} (pid ${m.pid}) exited with ${code}:\n${m.output().split('\n').slice(-5).join('\n')}`);
      });
    }
  });
}
