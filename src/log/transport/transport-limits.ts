/**
 * The bounds of the peer transport, with units. Defaults suit a group on one network; each can be
 * overridden when a transport is made (tests shrink them to reach the edges quickly).
 */
export interface PeerTransportLimits {
  /** Raft messages waiting for one peer; past it the oldest are dropped (Raft resends what is lost). */
  readonly queue_messages_max: number;
  /** Messages in one frame of the Raft stream. */
  readonly batch_messages_max: number;
  /** Approximate bytes in one frame of the Raft stream (entry payloads plus a fixed cost per message). */
  readonly batch_bytes_max: number;
  /** Snapshot data is sent in chunks of this size, over a stream of its own. */
  readonly snapshot_chunk_bytes: number;
  /** The largest snapshot a member accepts (written to disk as it arrives, or held whole by a transport without a store). */
  readonly snapshot_bytes_max: number;
  /** Backoff before redialing a peer after its stream broke: doubles from min up to max. */
  readonly reconnect_backoff_ms_min: number;
  readonly reconnect_backoff_ms_max: number;
  /** HTTP/2 pings find a peer that stopped answering (a paused process, a cut link) within about twice this. */
  readonly keepalive_ms: number;
  /** How long close() lets calls in flight finish before it cuts them. */
  readonly close_wait_ms: number;
  /**
   * HTTP/2 flow-control window of each stream and connection, both ways. A stream moves at most this
   * many bytes per round trip: HTTP/2's own 64 KiB held a snapshot to about 1 MB/s over a link with
   * 20 ms of latency (docs/cluster.md, "Flow-control windows"). Memory is bounded apart from it (a receiver pauses
   * a stream while it writes a chunk, so the window fills and stops the sender).
   */
  readonly stream_window_bytes: number;
  /**
   * How long a queue holding only quiet commit notices waits for another message to the same peer
   * before it is written out alone (peer-link.ts); 0 writes each at the end of its turn. At most
   * this much later a follower with no further writes coming learns of a commit.
   */
  readonly commit_notice_hold_ms: number;
}

export const default_peer_transport_limits: PeerTransportLimits = {
  queue_messages_max: 4096,
  batch_messages_max: 512,
  batch_bytes_max: 4 * 1024 * 1024,
  snapshot_chunk_bytes: 1024 * 1024,
  snapshot_bytes_max: 2 * 1024 * 1024 * 1024 - 1,
  reconnect_backoff_ms_min: 50,
  reconnect_backoff_ms_max: 2000,
  keepalive_ms: 2000,
  close_wait_ms: 1000,
  stream_window_bytes: 16 * 1024 * 1024,
  commit_notice_hold_ms: 5,
};

/** A frame may be a whole batch plus msgpack's framing; a little over the batch bound keeps the channel from refusing it. */
export function frameBytesMax(limits: PeerTransportLimits): number {
  return Math.max(limits.batch_bytes_max, limits.snapshot_chunk_bytes) + 1024 * 1024;
}
