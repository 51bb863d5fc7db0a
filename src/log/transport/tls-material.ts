import { readFileSync } from 'node:fs';
import { invalidArgument } from '../../common/errors.js';

/** The PEM files a member's mutual TLS is made of: the group's CA, and this member's certificate and key. */
export interface TlsFiles {
  readonly ca_file: string;
  readonly cert_file: string;
  readonly key_file: string;
}

export interface TlsMaterial {
  /** PEM of the CA every peer's certificate must chain to; nothing else is trusted. */
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Reads the three files; a missing or non-PEM file is INVALID_ARGUMENT naming the setting's file. */
export function loadTlsMaterial(files: TlsFiles): TlsMaterial {
  const read = (path: string, what: string): Buffer => {
    if (path === '') throw invalidArgument(`the peer transport needs ${what}: no file is set`, 'TLS_FILE_MISSING');
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      throw invalidArgument(`${what} ${path}: ${(e as Error).message}`, 'TLS_FILE_UNREADABLE');
    }
    if (!bytes.includes('-----BEGIN ')) throw invalidArgument(`${what} ${path}: not a PEM file`, 'TLS_FILE_UNREADABLE');
    return bytes;
  };
  return { ca: read(files.ca_file, 'the CA certificate'), cert: read(files.cert_file, "the member's certificate"), key: read(files.key_file, "the member's key") };
}
