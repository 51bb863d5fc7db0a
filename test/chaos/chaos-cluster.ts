import { mkdirSync } from 'node:fs';
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
  readonly ids: readonly number[];
  /** Whether members past the first were joined (false while the build's leader cannot join). */
  readonly joined: boolean;
  /** REST host:port of a member (stable across restarts: the port is read again after each start). */
  rest(node_id: number): string;
  link(from: number, to: number): LinkProxy;
  /** Sets one fault on every link from `from` to `to`, or on both directions when `both`. */
  setLinks(links: readonly (readonly [number, number])[], fault: LinkFault): void;
  healLinks(): void;
  stop(): Promise<void>;
}

export async function startChaosCluster(dir: string, members: number, log: (line: string) => void): Promise<ChaosCluster> {
  const certs = join(dir, 'certs');
  await initAuthority(certs, 'chaos.weft');
  const ids = Array.from({ length: members }, (_, i) => i + 1);
  const files = await Promise.all(ids.map((id) => issueMember(certs, id)));
  const peer_ports = await Promise.all(ids.map(() => freeLoopbackPort()));
  const peer = (id: number): string => `127.0.0.1:${peer_ports[id - 1]!}`;

  const links = new Map<string, LinkProxy>();
  const key = (from: number, to: number): string => `${from}->${to}`;
  for (const from of ids) for (const to of ids) if (from !== to) links.set(key(from, to), await LinkProxy.start(peer(to)));

  const supervisor = new Supervisor(log);
  const stop = async (): Promise<void> => {
    await supervisor.stopAll();
    await Promise.all([...links.values()].map((l) => l.close()));
  };
  try {
    for (const id of ids) {
      const tls = files[id - 1]!;
      const overrides = ids.filter((to) => to !== id).map((to) => `${peer(to)}=${links.get(key(id, to))!.address}`);
      const data_dir = join(dir, `member-${id}`);
      mkdirSync(data_dir, { recursive: true });
      await supervisor.start({
        node_id: id,
        data_dir,
        peer_port: peer_ports[id - 1]!,
        args: [
          ...['--tls-ca-file', tls.ca_file, '--tls-cert-file', tls.cert_file, '--tls-key-file', tls.key_file],
          ...(overrides.length > 0 ? ['--peer-dial-overrides', overrides.join(',')] : []),
        ],
        env: id === 1 ? {} : { WEFT_JOIN_WAIT: 'true' },
      });
    }
    const joined = await joinMembers(
      supervisor.member(1).rest,
      ids.slice(1).map((id) => ({ node_id: id, peer: peer(id), identity: files[id - 1]!.identity })),
      log,
    );
    return {
      supervisor,
      ids,
      joined,
      rest: (id) => supervisor.member(id).rest,
      link: (from, to) => links.get(key(from, to))!,
      setLinks(chosen, fault) {
        for (const [from, to] of chosen) links.get(key(from, to))!.set(fault);
      },
      healLinks() {
        for (const l of links.values()) l.set({ kind: 'pass' });
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
