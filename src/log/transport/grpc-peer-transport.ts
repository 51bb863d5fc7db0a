import { unavailable, WeftError } from '../../common/errors.js';
import { assertNever } from '../../common/assert.js';
import type { Message, NodeId } from '../raft/types.js';
import { type AdmissionMode, PeerBinding } from './admission.js';
import type { H2Listener } from './h2-peer-interface.js';
import { peerH2Engine, peer_http2_engine_default, type PeerHttp2Engine } from './h2-peer-engine.js';
import type { PeerCallEnd } from './peer-call.js';
import { PeerChannel } from './peer-channel.js';
import { PeerLink } from './peer-link.js';
import { peerService, type SnapshotReceiveEvent } from './peer-server.js';
import type { PeerAddress, PeerCallHandler, PeerTransport, RaftMessageHandler } from './peer-transport.js';
import { decodeFrame, encodeFrame, type PeerCallRequest, type PeerCallResponse, peer_paths, type SenderHeader } from './peer-wire.js';
import { sendSnapshot } from './snapshot-stream.js';
import { memorySnapshotFiles, type SnapshotFiles } from './snapshot-files.js';
import type { TlsMaterial } from './tls-material.js';
import { server_pair, type VersionPair } from '../version/version-pair.js';
import type { VersionStamp } from '../version/handshake.js';
import { default_peer_transport_limits, frameBytesMax, type PeerTransportLimits } from './transport-limits.js';

/**
 * The peer transport over gRPC with mutual TLS only (DESIGN 6, SPEC 5.1). Both sides present a
 * certificate signed by the group's CA; the dialer accepts a server only when its certificate proves
 * exactly the identity bound to the peer id it dialed (never the host name), and the acceptor admits
 * a frame only when the caller's identity is the one bound to the frame's sender (admission.ts).
 *
 * The wire is gRPC (method paths, length-prefixed messages, grpc-status trailers, grpc-timeout), spoken
 * directly over HTTP/2 by peer-call.ts and peer-server-call.ts; every HTTP/2 call goes through the
 * interface of h2-peer-interface.ts, on the engine `http2_engine` names (h2-peer-engine.ts).
 */
export interface GrpcPeerTransportOptions {
  readonly node_id: NodeId;
  /** Interface to listen on; 127.0.0.1 unless configured. */
  readonly host: string;
  /** 0 lets the OS choose. */
  readonly port: number;
  /** host:port peers dial back; defaults to host:port as bound. */
  readonly advertise_address?: string;
  readonly tls: TlsMaterial;
  readonly admission: AdmissionMode;
  readonly limits?: Partial<PeerTransportLimits>;
  /**
   * Where to really dial a peer whose membership address is the key: a proxy or tunnel in between
   * (the chaos harness puts a proxy on every link this way). The identity checked is unchanged.
   */
  readonly dial_overrides?: ReadonlyMap<string, string>;
  /** Where refusals and broken streams are reported; silent by default. */
  readonly log?: (line: string) => void;
  /** The version this member runs and the deployment it belongs to (SPEC 9.3); the server's pair and no deployment when absent. */
  readonly version?: PeerVersion;
  /** Which HTTP/2 implementation listens and dials (setting peer_http2_engine); Weft's own when absent. */
  readonly http2_engine?: PeerHttp2Engine;
}

export interface PeerVersion {
  readonly pair: VersionPair;
  /** The deployment id as 32 hex digits, read at every frame; empty until the member joined one. */
  deployment(): string;
}

interface PeerRoute {
  readonly peer: PeerAddress;
  readonly channel: PeerChannel;
  readonly link: PeerLink;
  snapshot_in_flight: boolean;
}

/** Counters a server can export as metrics. */
export interface PeerTransportCounters {
  refused_frames: number;
  /** Frames and calls refused because the sender runs another version or belongs to another deployment. */
  version_refused_calls: number;
  failed_streams: number;
  dropped_messages: number;
  /** Frames written on Raft streams: what one turn of the event loop sends a peer is one frame. */
  raft_frames_sent: number;
  /** Snapshot sends that resumed where the receiver held part of the same snapshot, and the bytes that were therefore not sent again. */
  snapshots_resumed: number;
  snapshot_bytes_not_resent: number;
  /** Snapshot sends started, those the receiver's Raft got whole, and the data bytes written to their streams. */
  snapshots_sent: number;
  snapshots_delivered: number;
  snapshot_bytes_sent: number;
  /** Snapshot streams received, by how each ended (snapshot-stream.ts), and the data bytes written here. */
  snapshots_received: number;
  snapshot_receives_refused: number;
  snapshot_receives_broken: number;
  snapshot_resumes_offered: number;
  snapshot_bytes_received: number;
}

export async function startGrpcPeerTransport(options: GrpcPeerTransportOptions): Promise<GrpcPeerTransport> {
  const limits = { ...default_peer_transport_limits, ...options.limits };
  const transport = new GrpcPeerTransport(options, limits);
  const listener = await peerH2Engine(options.http2_engine ?? peer_http2_engine_default).listen({
    host: options.host,
    port: options.port,
    tls: options.tls,
    window_bytes: limits.stream_window_bytes,
    keepalive_ms: limits.keepalive_ms,
    onStream: transport.serve,
    onRefusedConnection: (why) => options.log?.(`peer transport: refused a connection: ${why}`),
  });
  transport.bound(listener, options.advertise_address ?? `${options.host}:${listener.port}`);
  return transport;
}

export class GrpcPeerTransport implements PeerTransport {
  private advertised = '';
  private readonly binding: PeerBinding;
  private readonly routes = new Map<NodeId, PeerRoute>();
  private listener: H2Listener | undefined;
  /** The sender header, remade only when the deployment changes (it is read at every frame). */
  private sender: SenderHeader | undefined;
  private stamped: VersionStamp | undefined;
  private readonly call_handlers = new Map<string, PeerCallHandler>();
  private raft_handler: RaftMessageHandler | undefined;
  private unreachable_handler: (to: NodeId) => void = () => {};
  private snapshot_handler: (to: NodeId, ok: boolean) => void = () => {};
  private closed = false;
  /** Where snapshot data is read from and written to; in memory until a member's store is given. */
  private snapshot_files: SnapshotFiles;
  /** Identities of removed members: their frames are answered MEMBER_REMOVED, so a returning one learns it. */
  private departed: ReadonlySet<string> = new Set();
  readonly counters: PeerTransportCounters = { refused_frames: 0, version_refused_calls: 0, failed_streams: 0, dropped_messages: 0, raft_frames_sent: 0, snapshots_resumed: 0, snapshot_bytes_not_resent: 0,
    snapshots_sent: 0, snapshots_delivered: 0, snapshot_bytes_sent: 0,
    snapshots_received: 0, snapshot_receives_refused: 0, snapshot_receives_broken: 0, snapshot_resumes_offered: 0, snapshot_bytes_received: 0 };

  /** Serves each stream the peer port accepts. */
  readonly serve: ReturnType<typeof peerService>;

  constructor(
    private readonly options: GrpcPeerTransportOptions,
    private readonly limits: PeerTransportLimits,
  ) {
    this.binding = new PeerBinding(options.node_id, options.admission);
    this.snapshot_files = memorySnapshotFiles(limits.snapshot_bytes_max);
    this.serve = peerService(
      {
        self: options.node_id,
        binding: this.binding,
        snapshot_bytes_max: limits.snapshot_bytes_max,
        snapshotFiles: () => this.snapshot_files,
        departed: (identity) => this.departed.has(identity),
        raftHandler: () => this.raft_handler,
        callHandler: (method) => this.call_handlers.get(method),
        refused: (from, why) => {
          this.counters.refused_frames++;
          this.options.log?.(`peer transport: refused a frame from member ${from}: ${why}`);
        },
        stamp: () => this.stamp(),
        versionRefused: () => {
          this.counters.version_refused_calls++;
        },
        snapshotReceiving: (event) => this.countSnapshotReceiving(event),
      },
      frameBytesMax(limits),
    );
  }

  /** @internal called once the port is bound. */
  bound(listener: H2Listener, address: string): void {
    this.listener = listener;
    this.advertised = address;
  }

  get address(): string {
    return this.advertised;
  }

  /** True while this member, waiting to be joined, still admits any identity its CA signed. */
  get admissionOpen(): boolean {
    return this.binding.isOpen;
  }

  setPeers(peers: ReadonlyMap<NodeId, PeerAddress>): void {
    this.binding.setPeers(peers);
    for (const [id, route] of this.routes) {
      const now = this.binding.peer(id);
      if (now === undefined || now.address !== route.peer.address || now.identity !== route.peer.identity) this.dropRoute(id, route);
    }
  }

  send(messages: readonly Message[]): void {
    for (const message of messages) {
      const route = this.routeTo(message.to);
      if (route === undefined) {
        this.counters.dropped_messages++;
        this.unreachable_handler(message.to);
      } else if (message.type === 'snap') {
        this.sendSnapshotTo(message.to, route, message);
      } else {
        // Queued, in order: the link writes everything queued this turn as one frame.
        route.link.send(message);
      }
    }
  }

  onRaftMessage(handler: RaftMessageHandler): void {
    this.raft_handler = handler;
  }

  onUnreachable(handler: (to: NodeId) => void): void {
    this.unreachable_handler = handler;
  }

  onSnapshotSent(handler: (to: NodeId, ok: boolean) => void): void {
    this.snapshot_handler = handler;
  }

  handle(method: string, handler: PeerCallHandler): void {
    this.call_handlers.set(method, handler);
  }

  useSnapshotFiles(files: SnapshotFiles): void {
    this.snapshot_files = files;
  }

  setDeparted(identities: readonly string[]): void {
    this.departed = new Set(identities);
  }

  call(to: NodeId, method: string, payload: Uint8Array, timeout_ms: number): Promise<Uint8Array> {
    const route = this.routeTo(to);
    if (route === undefined) return Promise.reject(unavailable(`member ${to} has no known address`, 'PEER_UNKNOWN', { node_id: String(to) }));
    const request: PeerCallRequest = { ...this.header(), method, payload };
    return new Promise<Uint8Array>((resolve, reject) => {
      const call = route.channel.start(peer_paths.call, { timeout_ms, message_bytes_max: frameBytesMax(this.limits) }, {
        done: (end) => {
          if (!end.ok) reject(weftErrorOf(end, to));
          else if (end.answer === undefined) reject(new WeftError('INTERNAL', `member ${to} answered nothing`));
          else resolve(decodeFrame<PeerCallResponse>(end.answer).payload);
        },
      });
      call.write(encodeFrame(request));
      call.close();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, route] of this.routes) this.dropRoute(id, route);
    await this.listener?.close(this.limits.close_wait_ms);
  }

  private header(): SenderHeader {
    const stamp = this.stamp();
    const known = this.sender;
    if (known !== undefined && known.pair === stamp.pair && known.deployment === stamp.deployment && known.from_address === this.advertised) return known;
    this.sender = { from: this.options.node_id, from_address: this.advertised, ...stamp };
    return this.sender;
  }

  /** This member's pair and deployment, remade only when the deployment changes (read for every frame sent and received). */
  private stamp(): VersionStamp {
    const pair = this.options.version?.pair ?? server_pair;
    const deployment = this.options.version?.deployment() ?? '';
    const known = this.stamped;
    if (known !== undefined && known.pair === pair && known.deployment === deployment) return known;
    this.stamped = { pair, deployment };
    return this.stamped;
  }

  private routeTo(to: NodeId): PeerRoute | undefined {
    if (this.closed) return undefined;
    const existing = this.routes.get(to);
    if (existing !== undefined) return existing;
    const peer = this.binding.peer(to);
    if (peer === undefined || to === this.options.node_id) return undefined;
    // Each peer's connection checks its own identity: never one shared with another peer.
    const channel = new PeerChannel({
      address: this.options.dial_overrides?.get(peer.address) ?? peer.address,
      tls: this.options.tls,
      expected_identity: peer.identity,
      window_bytes: this.limits.stream_window_bytes,
      keepalive_ms: this.limits.keepalive_ms,
      reconnect_backoff_ms_min: this.limits.reconnect_backoff_ms_min,
      reconnect_backoff_ms_max: this.limits.reconnect_backoff_ms_max,
      engine: peerH2Engine(this.options.http2_engine ?? peer_http2_engine_default),
    });
    const link = new PeerLink(to, channel, () => this.header(), frameBytesMax(this.limits), this.limits, {
      unreachable: (id) => this.unreachable_handler(id),
      frameSent: () => {
        this.counters.raft_frames_sent++;
      },
      streamFailed: (id, error) => {
        this.counters.failed_streams++;
        this.options.log?.(`peer transport: stream to member ${id} at ${peer.address} ended: ${error.code} ${error.message}`);
      },
    });
    const route: PeerRoute = { peer, channel, link, snapshot_in_flight: false };
    this.routes.set(to, route);
    return route;
  }

  private dropRoute(id: NodeId, route: PeerRoute): void {
    this.routes.delete(id);
    this.counters.dropped_messages += route.link.dropped;
    route.link.close();
    route.channel.close();
  }

  private sendSnapshotTo(to: NodeId, route: PeerRoute, message: Extract<Message, { type: 'snap' }>): void {
    // Raft sends one snapshot to a peer and waits for its report; a second one while the first is on the
    // wire is reported not sent rather than doubling hundreds of megabytes in flight.
    if (route.snapshot_in_flight) {
      this.snapshot_handler(to, false);
      return;
    }
    route.snapshot_in_flight = true;
    this.counters.snapshots_sent++;
    void sendSnapshot(route.channel, this.header(), message, this.limits.snapshot_chunk_bytes, this.snapshot_files, frameBytesMax(this.limits)).then(({ delivered: ok, resumed_at, bytes_sent }) => {
      route.snapshot_in_flight = false;
      this.counters.snapshot_bytes_sent += bytes_sent;
      if (ok) this.counters.snapshots_delivered++;
      if (resumed_at > 0) {
        this.counters.snapshots_resumed++;
        this.counters.snapshot_bytes_not_resent += resumed_at;
      }
      if (!ok) this.unreachable_handler(to);
      this.snapshot_handler(to, ok);
    });
  }

  private countSnapshotReceiving(event: SnapshotReceiveEvent): void {
    const c = this.counters;
    switch (event.kind) {
      case 'chunk':
        c.snapshot_bytes_received += event.bytes;
        return;
      case 'complete':
        c.snapshots_received++;
        return;
      case 'refused':
        c.snapshot_receives_refused++;
        return;
      case 'broken':
        c.snapshot_receives_broken++;
        return;
      case 'resume_offered':
        c.snapshot_resumes_offered++;
        return;
      default:
        assertNever(event, 'snapshot receive event');
    }
  }

}

/** A failed unary call as a WeftError: the peer's own code, reason and metadata, or UNAVAILABLE when it could not be reached. */
function weftErrorOf(end: Extract<PeerCallEnd, { ok: false }>, to: NodeId): WeftError {
  if (end.detail !== undefined) return new WeftError(end.code, end.message, end.detail.reason, end.detail.metadata);
  if (end.code === 'UNAVAILABLE') return unavailable(`member ${to} is unreachable: ${end.message}`, 'PEER_UNREACHABLE', { node_id: String(to) });
  return new WeftError(end.code, end.message);
}
