import { type ChannelOptions, Client, credentials, Metadata, Server, type ServiceError, status } from '@grpc/grpc-js';
import type { PeerCertificate } from 'node:tls';
import { type StatusCode, unavailable, WeftError } from '../../common/errors.js';
import { assertNever } from '../../common/assert.js';
import type { Message, NodeId } from '../raft/types.js';
import { type AdmissionMode, PeerBinding } from './admission.js';
import { PeerLink } from './peer-link.js';
import { peerServiceImplementation, type SnapshotReceiveEvent } from './peer-server.js';
import { PeerServerCredentials } from './peer-server-credentials.js';
import { raiseConnectionWindow } from './peer-server-window.js';
import type { PeerAddress, PeerCallHandler, PeerTransport, RaftMessageHandler } from './peer-transport.js';
import { decodeFrame, error_detail_key, type PeerCallErrorDetail, type PeerCallRequest, type PeerCallResponse, peerServiceDefinition, type SenderHeader } from './peer-wire.js';
import { sendSnapshot } from './snapshot-stream.js';
import { memorySnapshotFiles, type SnapshotFiles } from './snapshot-files.js';
import { spiffeIdOfCertificate } from './spiffe-id.js';
import type { TlsMaterial } from './tls-material.js';
import { server_pair, type VersionPair } from '../version/version-pair.js';
import type { VersionStamp } from '../version/handshake.js';
import { default_peer_transport_limits, frameBytesMax, type PeerTransportLimits } from './transport-limits.js';

/**
 * The peer transport over gRPC with mutual TLS only (DESIGN 6, SPEC 5.1). Both sides present a
 * certificate signed by the group's CA; the dialer accepts a server only when its certificate proves
 * exactly the identity bound to the peer id it dialed (never the host name), and the acceptor admits
 * a frame only when the caller's identity is the one bound to the frame's sender (admission.ts).
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
}

export interface PeerVersion {
  readonly pair: VersionPair;
  /** The deployment id as 32 hex digits, read at every frame; empty until the member joined one. */
  deployment(): string;
}

/** The SNI name every peer is dialed with. */
const peer_tls_server_name = 'weft-peer';

interface PeerChannel {
  readonly peer: PeerAddress;
  readonly client: Client;
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
  const server = new Server({
    'grpc.max_receive_message_length': frameBytesMax(limits),
    'grpc.keepalive_time_ms': limits.keepalive_ms,
    'grpc.keepalive_timeout_ms': limits.keepalive_ms,
  });
  raiseConnectionWindow(server, limits.stream_window_bytes);
  const transport = new GrpcPeerTransport(options, limits, server);
  const creds = new PeerServerCredentials(options.tls, limits.stream_window_bytes);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, creds, (e, p) => (e ? reject(unavailable(`peer port ${options.host}:${options.port}: ${e.message}`)) : resolve(p))),
  );
  transport.bound(options.advertise_address ?? `${options.host}:${port}`);
  return transport;
}

export class GrpcPeerTransport implements PeerTransport {
  private advertised = '';
  private readonly binding: PeerBinding;
  private readonly channels = new Map<NodeId, PeerChannel>();
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

  constructor(
    private readonly options: GrpcPeerTransportOptions,
    private readonly limits: PeerTransportLimits,
    private readonly server: Server,
  ) {
    this.binding = new PeerBinding(options.node_id, options.admission);
    this.snapshot_files = memorySnapshotFiles(limits.snapshot_bytes_max);
    server.addService(
      peerServiceDefinition,
      peerServiceImplementation({
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
      }),
    );
  }

  /** @internal called once the server is bound. */
  bound(address: string): void {
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
    for (const [id, channel] of this.channels) {
      const now = this.binding.peer(id);
      if (now === undefined || now.address !== channel.peer.address || now.identity !== channel.peer.identity) this.dropChannel(id, channel);
    }
  }

  send(messages: readonly Message[]): void {
    for (const message of messages) {
      const channel = this.channelTo(message.to);
      if (channel === undefined) {
        this.counters.dropped_messages++;
        this.unreachable_handler(message.to);
      } else if (message.type === 'snap') {
        this.sendSnapshotTo(message.to, channel, message);
      } else {
        // Queued, in order: the link writes everything queued this turn as one frame.
        channel.link.send(message);
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
    const channel = this.channelTo(to);
    if (channel === undefined) return Promise.reject(unavailable(`member ${to} has no known address`, 'PEER_UNKNOWN', { node_id: String(to) }));
    const request: PeerCallRequest = { ...this.header(), method, payload };
    return new Promise<Uint8Array>((resolve, reject) => {
      channel.client.makeUnaryRequest<PeerCallRequest, PeerCallResponse>(
        peerServiceDefinition.call.path,
        peerServiceDefinition.call.requestSerialize,
        peerServiceDefinition.call.responseDeserialize,
        request,
        new Metadata(),
        { deadline: Date.now() + timeout_ms },
        (error, response) => (error !== null || response === undefined ? reject(weftErrorOf(error, to)) : resolve(response.payload)),
      );
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, channel] of this.channels) this.dropChannel(id, channel);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, this.limits.close_wait_ms);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private header(): SenderHeader {
    return { from: this.options.node_id, from_address: this.advertised, ...this.stamp() };
  }

  private stamp(): VersionStamp {
    return { pair: this.options.version?.pair ?? server_pair, deployment: this.options.version?.deployment() ?? '' };
  }

  private channelTo(to: NodeId): PeerChannel | undefined {
    if (this.closed) return undefined;
    const existing = this.channels.get(to);
    if (existing !== undefined) return existing;
    const peer = this.binding.peer(to);
    if (peer === undefined || to === this.options.node_id) return undefined;
    const client = new Client(this.options.dial_overrides?.get(peer.address) ?? peer.address, this.credentialsFor(peer.identity), this.channelOptions());
    const link = new PeerLink(to, client, () => this.header(), this.limits, {
      unreachable: (id) => this.unreachable_handler(id),
      frameSent: () => {
        this.counters.raft_frames_sent++;
      },
      streamFailed: (id, error) => {
        this.counters.failed_streams++;
        this.options.log?.(`peer transport: stream to member ${id} at ${peer.address} ended: ${error.message}`);
      },
    });
    const channel: PeerChannel = { peer, client, link, snapshot_in_flight: false };
    this.channels.set(to, channel);
    return channel;
  }

  private dropChannel(id: NodeId, channel: PeerChannel): void {
    this.channels.delete(id);
    this.counters.dropped_messages += channel.link.dropped;
    channel.link.close();
    channel.client.close();
  }

  private sendSnapshotTo(to: NodeId, channel: PeerChannel, message: Extract<Message, { type: 'snap' }>): void {
    // Raft sends one snapshot to a peer and waits for its report; a second one while the first is on the
    // wire is reported not sent rather than doubling hundreds of megabytes in flight.
    if (channel.snapshot_in_flight) {
      this.snapshot_handler(to, false);
      return;
    }
    channel.snapshot_in_flight = true;
    this.counters.snapshots_sent++;
    void sendSnapshot(channel.client, this.header(), message, this.limits.snapshot_chunk_bytes, this.snapshot_files).then(({ delivered: ok, resumed_at, bytes_sent }) => {
      channel.snapshot_in_flight = false;
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

  private credentialsFor(identity: string): ReturnType<typeof credentials.createSsl> {
    const { ca, key, cert } = this.options.tls;
    return credentials.createSsl(ca, key, cert, {
      // The peer is who the membership says only if its certificate proves the bound SPIFFE ID; the host
      // name it was dialed by proves nothing.
      checkServerIdentity: (_host: string, peer_cert: PeerCertificate) => {
        const proved = spiffeIdOfCertificate(peer_cert);
        return proved === identity ? undefined : new Error(`the peer proves ${proved ?? 'no SPIFFE ID'}, expected ${identity}`);
      },
    });
  }

  private channelOptions(): ChannelOptions {
    return {
      'grpc.max_receive_message_length': frameBytesMax(this.limits),
      'grpc.max_send_message_length': frameBytesMax(this.limits),
      'grpc.keepalive_time_ms': this.limits.keepalive_ms,
      'grpc.keepalive_timeout_ms': this.limits.keepalive_ms,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': this.limits.reconnect_backoff_ms_min,
      'grpc.max_reconnect_backoff_ms': this.limits.reconnect_backoff_ms_max,
      // What the peer sends back (answers, errors) flows within the same raised window as what it receives.
      'grpc-node.flow_control_window': this.limits.stream_window_bytes,
      // Each peer's channel checks its own identity: never share a connection made for another.
      'grpc.use_local_subchannel_pool': 1,
      // TLS server names (SNI) may not be IP addresses, and peers are dialed by address; the name is
      // not what is checked (the identity is), so one fixed name serves every peer.
      'grpc.ssl_target_name_override': peer_tls_server_name,
    };
  }
}

/** A failed unary call as a WeftError: the peer's own code, reason and metadata, or UNAVAILABLE when it could not be reached. */
function weftErrorOf(error: ServiceError | null, to: NodeId): WeftError {
  if (error === null) return new WeftError('INTERNAL', `member ${to} answered nothing`);
  const code = (status[error.code] ?? 'UNKNOWN') as StatusCode;
  const detail_bytes = error.metadata?.get(error_detail_key)[0];
  if (detail_bytes instanceof Buffer) {
    const detail = decodeFrame<PeerCallErrorDetail>(detail_bytes);
    return new WeftError(code, error.details, detail.reason, detail.metadata);
  }
  if (code === 'UNAVAILABLE') return unavailable(`member ${to} is unreachable: ${error.details}`, 'PEER_UNREACHABLE', { node_id: String(to) });
  return new WeftError(code, error.details);
}
