import type { Server } from '@grpc/grpc-js';
import type { Http2Server, ServerHttp2Session } from 'node:http2';

/**
 * Raises the HTTP/2 connection window of every session the peer server accepts. The stream window is
 * a SETTINGS value the server advertises (peer-server-credentials.ts), but the connection's window is
 * not a setting: it starts at 64 KiB and only the receiving session can widen it
 * (Http2Session.setLocalWindowSize). @grpc/grpc-js makes its HTTP/2 servers inside and offers no
 * hook, so the method that makes them is wrapped to add a 'session' listener to each.
 *
 * The method is not part of grpc-js's typed API: if a release renames it, this throws when the
 * transport starts rather than silently leaving snapshots at a fraction of the link's speed.
 */
export function raiseConnectionWindow(server: Server, window_bytes: number): void {
  const inner = server as unknown as { createHttp2Server?: (credentials: unknown) => Http2Server };
  const make = inner.createHttp2Server;
  if (typeof make !== 'function') throw new Error('@grpc/grpc-js no longer makes its HTTP/2 servers in createHttp2Server: the peer window cannot be raised');
  inner.createHttp2Server = function (this: unknown, credentials: unknown): Http2Server {
    const http2Server = make.call(this, credentials);
    http2Server.on('session', (session: ServerHttp2Session) => {
      // A session that is already closing (a refused TLS peer) has no window to raise.
      if (!session.destroyed) session.setLocalWindowSize(window_bytes);
    });
    return http2Server;
  };
}
