/**
 * The engine over mutual TLS, as the peer transport would use it: the client passes tls.connect
 * options through (CA, certificate and key; ALPN h2), the server (a tls.Server asking for client
 * certificates) sees the client's SPIFFE identity, and a client whose certificate another CA
 * signed never gets a stream.
 */
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectH2 } from '../../../src/common/h2/client.js';
import { serveH2 } from '../../../src/common/h2/server.js';
import type { StreamEnd } from '../../../src/common/h2/stream.js';
import { foreignMember, testAuthority } from '../../support/certs.js';

describe('h2 engine over mutual TLS', () => {
  it('a member certificate gets its answer and is seen by its SPIFFE identity; a foreign one is refused', async () => {
    const authority = await testAuthority();
    const server_material = await authority.member(1);
    const client_material = await authority.member(2);
    const server = tls.createServer({ ...server_material, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] });
    const identities: string[] = [];
    const h2 = serveH2(server, {
      onStream(stream, _headers, connection) {
        const socket = connection.socket as tls.TLSSocket;
        identities.push(socket.getPeerCertificate().subjectaltname ?? '');
        stream.respond({ ':status': 200 });
        stream.end({ alpn: String(socket.alpnProtocol) });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    // Identity is the SPIFFE URI, checked by the caller as the peer transport does, not the host name.
    const ask = (material: typeof client_material): Promise<{ alpn: string | undefined; end: StreamEnd }> => {
      const conn = connectH2({ host: '127.0.0.1', port, tls: { ...material, checkServerIdentity: () => undefined } });
      return new Promise((resolve) => {
        const stream = conn.request({ ':method': 'POST', ':scheme': 'https', ':path': '/who' }, true)!;
        let alpn: string | undefined;
        stream.handler = { onResponse() {}, onData() {}, onEnd() {}, onDrain() {}, onTrailers: (t) => (alpn = t['alpn']), onClose: (end) => {
          conn.destroy();
          resolve({ alpn, end });
        } };
      });
    };
    try {
      const good = await ask(client_material);
      expect(good).toEqual({ alpn: 'h2', end: { kind: 'done' } });
      expect(identities).toHaveLength(1);
      expect(identities[0]).toContain('URI:spiffe://weft.test/member/2');
      const stranger = await ask(await foreignMember(authority, 3));
      expect(stranger.end.kind).toBe('connection_lost');
      expect(identities).toHaveLength(1);
    } finally {
      for (const c of h2.connections) c.destroy();
      server.close();
    }
  });
});
