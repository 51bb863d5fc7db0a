import type { AdmissionMode } from '../log/transport/admission.js';
import type { GrpcPeerTransportOptions, PeerVersion } from '../log/transport/grpc-peer-transport.js';
import { loadTlsMaterial } from '../log/transport/tls-material.js';
import { invalidArgument } from '../common/errors.js';
import type { ServerConfig } from './config.js';

/**
 * The peer transport's options from the server's settings: it listens on host:peer_port, advertises
 * peer_advertise_address when set, and proves the identity in tls_cert_file. A member started to wait
 * for a join admits peers with 'open_until_bound' (src/log/transport/admission.ts); any other member
 * admits only the identities its membership binds.
 */
export function peerTransportOptions(config: ServerConfig, admission: AdmissionMode, log?: (line: string) => void, version?: PeerVersion): GrpcPeerTransportOptions {
  const tls = loadTlsMaterial({ ca_file: config.tls_ca_file, cert_file: config.tls_cert_file, key_file: config.tls_key_file });
  return {
    node_id: config.node_id,
    host: config.host,
    port: config.peer_port,
    ...(config.peer_advertise_address !== '' ? { advertise_address: config.peer_advertise_address } : {}),
    tls,
    admission,
    dial_overrides: parseDialOverrides(config.peer_dial_overrides),
    limits: { stream_window_bytes: config.peer_stream_window_bytes, commit_notice_hold_ms: config.peer_commit_notice_hold_ms },
    http2_engine: config.peer_http2_engine === 'NODE' ? 'node' : 'weft',
    ...(log !== undefined ? { log } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/** `a=b,c=d` as a map from membership address to the address really dialed. */
export function parseDialOverrides(text: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const pair of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const [from, to, ...rest] = pair.split('=');
    if (from === undefined || to === undefined || from === '' || to === '' || rest.length > 0) {
      throw invalidArgument(`peer_dial_overrides: '${pair}' is not 'address=dial'`);
    }
    out.set(from, to);
  }
  return out;
}
