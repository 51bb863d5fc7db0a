import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certsCommand, initAuthority, issueMember } from '../../src/cli/certs-command.js';
import { isWeftError } from '../../src/common/errors.js';
import { startGrpcPeerTransport } from '../../src/log/transport/grpc-peer-transport.js';
import { loadConfig } from '../../src/server/config.js';
import { peerTransportOptions } from '../../src/server/peer-transport-options.js';

/** `weft certs init|issue` make files a member's settings can name, and two members using them talk. */
describe('weft certs', () => {
  it('operator: init a CA, issue two members, start both transports from their settings and call across', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-certs-'));
    try {
      const lines: string[] = [];
      expect(await certsCommand(['init', '--dir', dir, '--trust-domain', 'example.org'], (l) => lines.push(l))).toBe(0);
      expect(await certsCommand(['issue', '--dir', dir, '--node-id', '1'], (l) => lines.push(l))).toBe(0);
      const two = await issueMember(dir, 2, 'spiffe://example.org/eu/db-2');
      expect(lines.join('\n')).toContain('spiffe://example.org/member/1');
      expect(statSync(join(dir, 'ca.key')).mode & 0o777).toBe(0o600);
      expect(statSync(two.key_file).mode & 0o777).toBe(0o600);

      const cert = new X509Certificate(readFileSync(two.cert_file));
      expect(cert.subjectAltName).toBe('URI:spiffe://example.org/eu/db-2, DNS:localhost, IP Address:127.0.0.1');
      expect(cert.checkIssued(new X509Certificate(readFileSync(two.ca_file)))).toBe(true);

      const settings = (n: number, cert_file: string, key_file: string) =>
        loadConfig(['--node-id', String(n), '--peer-port', '0', '--tls-ca-file', two.ca_file, '--tls-cert-file', cert_file, '--tls-key-file', key_file], {});
      const a = await startGrpcPeerTransport(peerTransportOptions(settings(1, join(dir, 'member-1.crt'), join(dir, 'member-1.key')), 'bound'));
      const b = await startGrpcPeerTransport(peerTransportOptions(settings(2, two.cert_file, two.key_file), 'bound'));
      try {
        const peers = new Map([
          [1, { address: a.address, identity: 'spiffe://example.org/member/1' }],
          [2, { address: b.address, identity: 'spiffe://example.org/eu/db-2' }],
        ]);
        a.setPeers(peers);
        b.setPeers(peers);
        b.handle('ping', async (from) => Buffer.from(`pong ${from}`));
        expect(Buffer.from(await a.call(2, 'ping', new Uint8Array(), 5000)).toString()).toBe('pong 1');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('operator mistakes: a second init over a CA, issuing without a CA, an identity outside the trust domain, missing TLS files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-certs-'));
    const code = async (p: Promise<unknown>): Promise<string> => p.then(() => 'OK', (e: unknown) => (isWeftError(e) ? e.code : String(e)));
    try {
      expect(await code(issueMember(dir, 1))).toBe('NOT_FOUND');
      await initAuthority(dir, 'weft.local');
      expect(await code(initAuthority(dir, 'weft.local'))).toBe('ALREADY_EXISTS');
      expect(await code(issueMember(dir, 1, 'spiffe://other.domain/member/1'))).toBe('INVALID_ARGUMENT');
      expect(await code(issueMember(dir, 1, 'spiffe://weft.local/../x'))).toBe('INVALID_ARGUMENT');
      expect(await code(Promise.resolve().then(() => peerTransportOptions(loadConfig([], {}), 'bound')))).toBe('INVALID_ARGUMENT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
