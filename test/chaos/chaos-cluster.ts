import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { initAuthority, issueMember } from '../../src/cli/certs-command.js';
import { joinMembers } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort } from '../../src/cli/member-process.js';
import { LinkProxy, type LinkFault } from './link-proxy.js';
import { Supervisor } from './supervisor.js';
import { emptySmallDisk, fillSmallDisk, mountSmallDisk, unmountSmallDisk } from '../support/small-disk.js';

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
  /** Takes every free byte of the member's disk (its own tmpfs; needs `disk_bytes`); returns how many. */
  fillDisk(node_id: number): number;
  /** Gives the member's disk its space back. */
  emptyDisk(node_id: number): void;
  stop(): Promise<void>;
  /**
   * After stop: unmounts the members' disks, copying each member's files beside it first when
   * `keep` (a failed run keeps its data directories for a look).
   */
  releaseDisks(keep: boolean): void;
}

/** Extra member flags for a run (e.g. small checkpoints and segments, so members catch up by snapshot). */
export interface ChaosClusterOptions {
  readonly member_args?: readonly string[];
  /**
   * Each member's data directory on a tmpfs of its own of this size (test/support/small-disk.ts),
   * so a `diskfull` fault fills one member's disk for real. Absent: plain directories.
   */
  readonly disk_bytes?: number;
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
  /** Slots whose data directory is a tmpfs mounted by this run. */
  const mounted = new Set<number>();
  const releaseDisks = (keep: boolean): void => {
    for (const s of mounted) {
      const data_dir = join(dir, `member-${s}`);
      if (keep) cpSync(data_dir, `${data_dir}.kept`, { recursive: true });
      unmountSmallDisk(data_dir);
    }
    mounted.clear();
  };
  const stop = async (): Promise<void> => {
    await supervisor.stopAll();
    await Promise.all([...links.values()].map((l) => l.close()));
  };
  // Member s dials every other slot's peer port through the proxy s -> t, whoever holds either slot.
  const startInSlot = async (s: number, node_id: number, tls: { ca_file: string; cert_file: string; key_file: string }, join_wait: boolean): Promise<void> => {
    const overrides = ids.filter((to) => to !== s).map((to) => `127.0.0.1:${peer_ports[to - 1]!}=${links.get(`${s}->${to}`)!.address}`);
    const data_dir = join(dir, `member-${s}`);
    mkdirSync(data_dir, { recursive: true });
    if (options.disk_bytes !== undefined && !mounted.has(s)) {
      mountSmallDisk(data_dir, options.disk_bytes);
      mounted.add(s);
    }
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
        // A mounted disk stays mounted: only what is on it goes.
        if (mounted.has(s)) for (const name of readdirSync(data_dir)) rmSync(join(data_dir, name), { recursive: true, force: true });
        else rmSync(data_dir, { recursive: true, force: true });
        const id = next_id++;
        const tls = await issueMember(certs, id);
        slot_of.set(id, s);
        await startInSlot(s, id, tls, true);
        current.set(s, id);
        return { node_id: id, identity: tls.identity, peer: peer(id) };
      },
      fillDisk(node_id) {
        const s = slot(node_id);
        if (!mounted.has(s)) throw new Error('a diskfull fault needs each member on a disk of its own (disk_bytes, --disk-mb)');
        return fillSmallDisk(join(dir, `member-${s}`));
      },
      emptyDisk(node_id) {
        emptySmallDisk(join(dir, `member-${slot(node_id)}`));
      },
      stop,
      releaseDisks,
    };
  } catch (e) {
    await stop();
    releaseDisks(false);
    throw e;
  }
}
