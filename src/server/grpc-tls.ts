import { readFileSync } from 'node:fs';
import { invalidArgument } from '../common/errors.js';
import type { ServerTls } from '../api/grpc-listeners.js';
import type { ServerConfig } from './config.js';

/**
 * TLS of the gRPC client port from its settings (docs/configuration.md): undefined when no
 * certificate is set (plain text, the default); a certificate without its key (or the reverse), a
 * CA without a certificate, or a file that is missing or not PEM stops the server at start.
 */
export function grpcTlsOf(config: Pick<ServerConfig, 'grpc_tls_cert_file' | 'grpc_tls_key_file' | 'grpc_tls_ca_file'>): ServerTls | undefined {
  const { grpc_tls_cert_file: cert, grpc_tls_key_file: key, grpc_tls_ca_file: ca } = config;
  if (cert === '' && key === '') {
    if (ca !== '') throw invalidArgument('grpc_tls_ca_file is set but grpc_tls_cert_file and grpc_tls_key_file are not: a client CA needs the port to speak TLS', 'TLS_FILE_MISSING');
    return undefined;
  }
  if (cert === '' || key === '') {
    throw invalidArgument(`grpc_tls_${cert === '' ? 'cert' : 'key'}_file is not set: TLS on the gRPC port needs both a certificate and its key`, 'TLS_FILE_MISSING');
  }
  return { cert: pemFile(cert, 'grpc_tls_cert_file'), key: pemFile(key, 'grpc_tls_key_file'), ...(ca !== '' ? { ca: pemFile(ca, 'grpc_tls_ca_file') } : {}) };
}

function pemFile(path: string, setting: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw invalidArgument(`${setting} ${path}: ${(e as Error).message}`, 'TLS_FILE_UNREADABLE');
  }
  if (!bytes.includes('-----BEGIN ')) throw invalidArgument(`${setting} ${path}: not a PEM file`, 'TLS_FILE_UNREADABLE');
  return bytes;
}
