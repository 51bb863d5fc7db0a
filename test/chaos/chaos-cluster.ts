import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { initAuthority, issueMember } from '../../src/cli/certs-command.js';
import { joinMembers } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort } from '../../src/cli/member-process.js';
import { LinkProxy, type LinkFault } from './link-proxy.js';
import { Supervisor } from './supervisor.js';

/**
 * The group a chaos run drives: N members as processes, each with its certificate, and one proxy on
 * every directed link between members. Member i reaches member j's peer port only through the proxy
 * (i -> j), by the setting peer_dial_overrides, so a fault can cut, slow or half-cut any single link
 * while clients still reach every member directly.
 */
export interface ChaosCluster {
  readonly supervisor: Supervisor;
  /** The members' node ids now: a replaced member's slot holds its successor's id. */
  readonly ids: readonly number[];
  /** Whether members past the first were joined (false while the build's leader cannot join). */
  readonly joined: boolean;
  /** REST host:port of a member (stable across restarts: the port is read again after each start). */
  rest(node_id: number): string;
  link(from: number, to: number): LinkProxy;
  /** Sets one fault on every link from `from` to `to`, or on both directions when `both`. */
  setLinks(links: readonly (readonly [number, number])[], fault: LinkFault): void;
  healLinks(): void;
  /**
   * Starts a new member in `node_id`'s slot (its peer port and links) on an emptied data directory,
   * under a new node id and identity, waiting to be joined; the caller has removed `node_id` from the
   * group and stopped it. Returns the new member's id and identity.
   */
  replaceSlot(node_id: number): Promise<{ readonly node_id: number; readonly identity: string; readonly peer: string }>;
  stop(): Promise<void>;
}

/** Extra member flags for a run (e.g. small checkpoints and segments, so members catch up by snapshot). */
export interface ChaosClusterOptions {
  readonly member_args?: readonly string[];
}

export async function startChaosCluster(dir: string, members: number, log: (line: string) => void, options: ChaosClusterOptions = {}): Promise<ChaosCluster> {
  const certs = join(dir, 'certs');
  await initAuthority(certs, 'chaos.weft');
  const ids = Array.from({ length: members }, (_, i) => i + 1);
  const files = await Promise.all(ids.map((id) => issueMember(certs, id)));
  const peer_ports = await Promise.all(ids.map(() => freeLoopbackPort()));
  // Slots are the first members' ids: a slot keeps its peer port, data directory and links when its
  // member is replaced; `slot_of` maps every node id since to its slot.
  const slot_of = new Map<number, number>(ids.map((id) => [id, id]));
  const current = new Map<number, number>(ids.map((id) => [id, id]));
  let next_id = members + 1;
  const slot = (node_id: number): number => {
    const s = slot_of.get(node_id);
    if (s === undefined) throw new Error(`no member ${node_id} in this run`);
    return s;
  };
  const peer = (id: number): string => `127.0.0.1:${peer_ports[slot(id) - 1]!}`;

  const links = new Map<string, LinkProxy>();
  const key = (from: number, to: number): string => `${slot(from)}->${slot(to)}`;
  for (const from of ids) for (const to of ids) if (from !== to) links.set(key(from, to), await LinkProxy.start(peer(to)));

  const supervisor = new Supervisor(log, join(dir, 'logs'));
  const stop = async (): Promise<void> => {
    await supervisor.stopAll();
    await Promise.all([...links.values()].map((l) => l.close()));
  };
  // Member s dials every other slot's peer port through the proxy s -> t, whoever holds either slot.
  const startInSlot = async (s: number, node_id: number, tls: { ca_file: string; cert_file: string; key_file: string }, join_wait: boolean): Promise<void> => {
    const overrides = ids.filter((to) => to !== s).map((to) => `127.0.0.1:${peer_ports[to - 1]!}=${links.get(`${s}->${to}`)!.address}`);
    const data_dir = join(dir, `member-${s}`);
    mkdirSync(data_dir, { recursive: true });
    await supervisor.start({
      node_id,
      data_dir,
      peer_port: peer_ports[s - 1]!,
      args: [
        ...['--tls-ca-file', tls.ca_file, '--tls-cert-file', tls.cert_file, '--tls-key-file', tls.key_file],
        ...(overrides.length > 0 ? ['--peer-dial-overrides', overrides.join(',')] : []),
        ...(options.member_args ?? []),
      ],
      env: join_wait ? { WEFT_JOIN_WAIT: 'true' } : {},
    });
  };
  try {
    for (const id of ids) await startInSlot(id, id, files[id - 1]!, id !== 1);
    const joined = await joinMembers(
      supervisor.member(1).rest,
      ids.slice(1).map((id) => ({ node_id: id, peer: peer(id), identity: files[id - 1]!.identity })),
      log,
    );
    return {
      supervisor,
      get ids() {
        return [...current.entries()].sort(([a], [b]) => a - b).map(([, id]) => id);
      },
      joined,
      rest: (id) => supervisor.member(id).rest,
      link: (from, to) => links.get(key(from, to))!,
      setLinks(chosen, fault) {
        for (const [from, to] of chosen) links.get(key(from, to))!.set(fault);
      },
      healLinks() {
        for (const l of links.values()) l.set({ kind: 'pass' });
      },
      async replaceSlot(node_id) {
        const s = slot(node_id);
        // Out of `ids` until its successor serves: clients and faults pick only among members there.
        current.delete(s);
        supervisor.forget(node_id);
        const data_dir = join(dir, `member-${s}`);
        rmSync(data_dir, { recursive: true, force: true });
        const id = next_id++;
        const tls = await issueMember(certs, id);
        slot_of.set(id, s);
        await startInSlot(s, id, tls, true);
        current.set(s, id);
        return { node_id: id, identity: tls.identity, peer: peer(id) };
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
