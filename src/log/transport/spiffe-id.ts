import type { PeerCertificate } from 'node:tls';
import { invalidArgument } from '../../common/errors.js';

/**
 * SPIFFE IDs (`spiffe://<trust_domain>/<path>`), the identities members prove in their certificates'
 * URI SAN (SPEC 5.1). Identities are compared whole, as strings, once parsed as valid here.
 */

/** The SPIFFE standard's bound on an ID's length, in bytes. */
export const spiffe_id_bytes_max = 2048;

const trust_domain_pattern = /^[a-z0-9._-]+$/;
const segment_pattern = /^[A-Za-z0-9._-]+$/;

export interface SpiffeId {
  readonly trust_domain: string;
  /** '' for the trust domain's own ID, else '/segment/...'. */
  readonly path: string;
}

/** Parses a SPIFFE ID; an ID that breaks the standard's rules is INVALID_ARGUMENT. */
export function parseSpiffeId(id: string): SpiffeId {
  const bad = (why: string): Error => invalidArgument(`'${id}' is not a SPIFFE ID: ${why}`, 'INVALID_SPIFFE_ID');
  if (Buffer.byteLength(id) > spiffe_id_bytes_max) throw bad(`longer than ${spiffe_id_bytes_max} bytes`);
  if (!id.startsWith('spiffe://')) throw bad("it must start with 'spiffe://'");
  const rest = id.slice('spiffe://'.length);
  const slash = rest.indexOf('/');
  const trust_domain = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash);
  if (!trust_domain_pattern.test(trust_domain)) throw bad('the trust domain may hold only a-z, 0-9, ".", "-" and "_"');
  if (path !== '') {
    for (const segment of path.slice(1).split('/')) {
      if (!segment_pattern.test(segment)) throw bad('each path segment must be non-empty and hold only A-Z, a-z, 0-9, ".", "-" and "_"');
      if (segment === '.' || segment === '..') throw bad("'.' and '..' are not path segments");
    }
  }
  return { trust_domain, path };
}

export function trustDomainOf(id: string): string {
  return parseSpiffeId(id).trust_domain;
}

/**
 * The SPIFFE ID a peer's certificate proves, or undefined when it proves none. A certificate with
 * more than one spiffe URI SAN proves none: the standard allows exactly one.
 */
export function spiffeIdOfCertificate(cert: PeerCertificate | undefined): string | undefined {
  const san = cert?.subjectaltname;
  if (san === undefined || san === '') return undefined;
  const ids = san
    .split(', ')
    .filter((name) => name.startsWith('URI:spiffe://'))
    .map((name) => name.slice('URI:'.length));
  if (ids.length !== 1) return undefined;
  try {
    parseSpiffeId(ids[0]!);
    return ids[0];
  } catch {
    return undefined;
  }
}
