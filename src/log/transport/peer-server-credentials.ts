import { ServerCredentials } from '@grpc/grpc-js';
import type { TlsMaterial } from './tls-material.js';

/**
 * Server credentials for the peer port: mutual TLS (a client certificate is required, and must chain
 * to the group's CA) plus the HTTP/2 settings the accepting side advertises.
 *
 * Why the settings: data on a client stream (Raft appends, snapshot chunks) flows toward the server,
 * so it is the server's receive window that bounds it. HTTP/2 opens every stream with a 64 KiB window
 * and @grpc/grpc-js has no server option to raise it, so at most 64 KiB travel per round trip: over a
 * link with 20 ms of latency each way a snapshot moved at about 1 MB/s whatever the chunk size. The
 * window is raised here, in the options Node's HTTP/2 server is built with (grpc-js merges a
 * credential's constructor options into them), and the connection's own window with it
 * (stream_window_bytes, see transport-limits.ts).
 */
export class PeerServerCredentials extends ServerCredentials {
  constructor(tls: TlsMaterial, stream_window_bytes: number) {
    super({ requestCert: true, settings: { initialWindowSize: stream_window_bytes } }, { ca: tls.ca, cert: [tls.cert], key: [tls.key] });
  }

  _equals(other: ServerCredentials): boolean {
    return other === this;
  }
}
