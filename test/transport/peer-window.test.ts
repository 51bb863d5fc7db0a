import { connect, type ClientHttp2Session } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { type GrpcPeerTransport, startGrpcPeerTransport } from '../../src/log/transport/grpc-peer-transport.js';
import { default_peer_transport_limits } from '../../src/log/transport/transport-limits.js';
import { testAuthority } from '../support/certs.js';

/**
 * The peer port's HTTP/2 flow-control windows, as a dialing member sees them. Data on a client stream
 * (snapshot chunks, Raft appends) is bounded per round trip by the windows the accepting side grants;
 * HTTP/2's 64 KiB held a snapshot to about 1 MB/s over a link with 20 ms of latency each way.
 */
const wait_ms_max = 5_000;
const started: GrpcPeerTransport[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

describe('peer transport: flow-control windows', () => {
  it('a member dialing the peer port is granted the stream and connection windows of stream_window_bytes, not HTTP/2\'s 64 KiB', async () => {
    const ca = await testAuthority();
    const accepting = await startGrpcPeerTransport({ node_id: 2, host: '127.0.0.1', port: 0, tls: await ca.member(2), admission: 'bound' });
    started.push(accepting);
    const own = await ca.member(1);
    const session: ClientHttp2Session = connect(`https://${accepting.address}`, {
      ca: own.ca,
      cert: own.cert,
      key: own.key,
      servername: 'weft-peer',
      // The identity check is the transport's business; here only the windows are looked at.
      checkServerIdentity: () => undefined,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no settings within ${wait_ms_max} ms`)), wait_ms_max);
        session.once('error', reject);
        session.once('remoteSettings', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      expect(session.remoteSettings.initialWindowSize).toBe(default_peer_transport_limits.stream_window_bytes);
      // The connection's window is widened by a WINDOW_UPDATE right after the settings.
      const deadline = Date.now() + wait_ms_max;
      while ((session.state.remoteWindowSize ?? 0) < default_peer_transport_limits.stream_window_bytes && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(session.state.remoteWindowSize).toBe(default_peer_transport_limits.stream_window_bytes);
    } finally {
      session.destroy();
    }
  });
});
