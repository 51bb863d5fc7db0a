import { WeftError, unavailable } from '../../src/common/errors.js';
import type { Message, NodeId, SnapshotMessage } from '../../src/log/raft/types.js';
import { memorySnapshotFiles, type SnapshotFiles } from '../../src/log/transport/snapshot-files.js';

const snapshot_chunk_bytes = 64 * 1024;
import type { PeerAddress, PeerCallHandler, PeerTransport, RaftMessageHandler } from '../../src/log/transport/peer-transport.js';

/**
 * Peers in one process, for tests: a hub routes messages between transports by address, honouring
 * each transport's bound peers (a message to an id with no binding is dropped, as over the network).
 * `isolate` cuts a member off in both directions, as a partition or a dead process would.
 */
export class MemoryHub {
  private readonly byAddress = new Map<string, MemoryTransport>();
  private readonly isolated = new Set<string>();

  transport(address: string): MemoryTransport {
    const t = new MemoryTransport(this, address);
    this.byAddress.set(address, t);
    return t;
  }

  isolate(address: string): void {
    this.isolated.add(address);
  }

  heal(address: string): void {
    this.isolated.delete(address);
  }

  /** The transport at `address` if a message from `from` can reach it now. */
  reach(from: string, address: string): MemoryTransport | undefined {
    if (this.isolated.has(from) || this.isolated.has(address)) return undefined;
    const t = this.byAddress.get(address);
    return t === undefined || t.closed ? undefined : t;
  }

  forget(address: string): void {
    this.byAddress.delete(address);
  }
}

export class MemoryTransport implements PeerTransport {
  private peers: ReadonlyMap<NodeId, PeerAddress> = new Map();
  private raftHandler: RaftMessageHandler = () => undefined;
  private unreachable: (to: NodeId) => void = () => undefined;
  private snapshotSent: (to: NodeId, ok: boolean) => void = () => undefined;
  private readonly handlers = new Map<string, PeerCallHandler>();
  private files: SnapshotFiles = memorySnapshotFiles(Number.MAX_SAFE_INTEGER);
  closed = false;
  /** Raft messages this transport sent, by type (tests look for snapshots). */
  readonly sent = new Map<string, number>();

  constructor(
    private readonly hub: MemoryHub,
    readonly address: string,
  ) {}

  setPeers(peers: ReadonlyMap<NodeId, PeerAddress>): void {
    this.peers = new Map(peers);
  }

  send(messages: readonly Message[]): void {
    for (const m of messages) {
      this.sent.set(m.type, (this.sent.get(m.type) ?? 0) + 1);
      const peer = this.peers.get(m.to);
      const target = peer === undefined ? undefined : this.hub.reach(this.address, peer.address);
      // Delivered on a later turn, like a network: never inside the sender's Ready.
      setImmediate(() => {
        if (this.closed) return;
        if (target === undefined || target.closed) {
          this.unreachable(m.to);
          if (m.type === 'snap') this.snapshotSent(m.to, false);
          return;
        }
        if (m.type === 'snap') {
          void this.copySnapshot(m, target).then((delivered) => {
            if (delivered !== undefined && !target.closed) target.raftHandler(delivered);
            this.snapshotSent(m.to, delivered !== undefined);
          });
          return;
        }
        target.raftHandler(m);
      });
    }
  }

  /** A snapshot's data goes from this member's store to the target's a chunk at a time, as over the network. */
  private async copySnapshot(m: SnapshotMessage, target: MemoryTransport): Promise<SnapshotMessage | undefined> {
    const source = await this.files.openOutgoing(m.snapshot.data);
    if (source === undefined) return undefined;
    const meta = m.snapshot.meta;
    const sink = await target.files.openIncoming(source.ref, { index: meta.index, term: meta.term, data_bytes: source.data_bytes, data_crc: source.data_crc });
    try {
      // What the target holds of this snapshot from an attempt cut short is not sent again.
      for (let offset = sink.held.bytes; offset < source.data_bytes; ) {
        const chunk = await source.read(offset, snapshot_chunk_bytes);
        await sink.append(chunk);
        offset += chunk.byteLength;
      }
      return { ...m, snapshot: { meta: m.snapshot.meta, data: await sink.finish() } };
    } catch {
      await sink.abort();
      return undefined;
    } finally {
      await source.close();
    }
  }

  /** Members in one process prove no identities, so none is refused as departed. */
  setDeparted(): void {}

  useSnapshotFiles(files: SnapshotFiles): void {
    this.files = files;
  }

  onRaftMessage(handler: RaftMessageHandler): void {
    this.raftHandler = handler;
  }

  onUnreachable(handler: (to: NodeId) => void): void {
    this.unreachable = handler;
  }

  onSnapshotSent(handler: (to: NodeId, ok: boolean) => void): void {
    this.snapshotSent = handler;
  }

  async call(to: NodeId, method: string, payload: Uint8Array, timeout_ms: number): Promise<Uint8Array> {
    const peer = this.peers.get(to);
    const target = peer === undefined ? undefined : this.hub.reach(this.address, peer.address);
    const handler = target?.handlers.get(method);
    if (handler === undefined) throw unavailable(`peer ${to} cannot be reached for ${method}`);
    const from = [...target!.peers].find(([, p]) => p.address === this.address)?.[0] ?? 0;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeout_ms);
    try {
      return await handler(from, payload, ac.signal);
    } catch (e) {
      if (e instanceof WeftError) throw e;
      throw unavailable(`peer ${to} failed ${method}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  handle(method: string, handler: PeerCallHandler): void {
    this.handlers.set(method, handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hub.forget(this.address);
  }
}
