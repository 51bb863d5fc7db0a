import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { invalidArgument } from '../../common/errors.js';
import { type PeerVersion, startGrpcPeerTransport } from '../../log/transport/grpc-peer-transport.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';
import type { ServerConfig } from '../config.js';
import { peerTransportOptions } from '../peer-transport-options.js';

/**
 * This member's peer transport and the identity it proves. With the tls_* settings the member listens
 * on peer_port with mutual TLS and proves the SPIFFE ID of its certificate; without them it has no
 * peers and can only be a group of one (peers never run in plaintext).
 */
export interface PeerMember {
  readonly transport: PeerTransport | undefined;
  readonly identity: string;
}

export async function openPeerMember(config: ServerConfig, log: (line: string) => void, injected?: PeerMember, version?: PeerVersion): Promise<PeerMember> {
  if (injected !== undefined) return injected;
  if (config.tls_cert_file === '') {
    if (config.join_wait) throw invalidArgument('join_wait needs the peer transport: set tls_ca_file, tls_cert_file and tls_key_file');
    return { transport: undefined, identity: '' };
  }
  const identity = identityOfCertificate(readFileSync(config.tls_cert_file, 'utf8'));
  const transport = await startGrpcPeerTransport(peerTransportOptions(config, config.join_wait ? 'open_until_bound' : 'bound', log, version));
  return { transport, identity };
}

/** The spiffe:// URI SAN of a PEM certificate. */
export function identityOfCertificate(pem: string): string {
  const san = new X509Certificate(pem).subjectAltName ?? '';
  const uri = san
    .split(',')
    .map((part) => part.trim())
    .find((part) => part.startsWith('URI:spiffe://'));
  if (uri === undefined) throw invalidArgument('the member certificate names no spiffe:// identity in its URI SAN', 'TLS_FILE_UNREADABLE');
  return uri.slice('URI:'.length);
}
