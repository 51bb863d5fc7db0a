// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { invalidArgument } from '../common/errors.js';
import { parseSpiffeId, trustDomainOf } from '../log/transport/spiffe-id.js';

/**
 * X.509 for a development group: a certificate authority and member certificates signed by it, each
 * member's SPIFFE ID in its URI SAN (SPEC 5.1). Keys are ECDSA P-256: WebCrypto makes them in
 * milliseconds and every TLS stack accepts them. Shared by `weft certs`, the cluster launcher and tests.
 */

const key_algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signing_algorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;
const day_ms = 24 * 60 * 60 * 1000;
/** A development CA outlives the members it signs. */
export const ca_valid_days_default = 3650;
export const member_valid_days_default = 365;

export interface PemPair {
  readonly cert_pem: string;
  readonly key_pem: string;
}

export interface Validity {
  readonly not_before: Date;
  readonly not_after: Date;
}

function validityFor(days: number, now: Date): Validity {
  // An hour of slack before now absorbs clock skew between the machine that issues and the one that checks.
  return { not_before: new Date(now.getTime() - 60 * 60 * 1000), not_after: new Date(now.getTime() + days * day_ms) };
}

/** A self-signed CA whose URI SAN is the trust domain's SPIFFE ID (`spiffe://<trust_domain>`). */
export async function createAuthority(trust_domain: string, validity: Validity = validityFor(ca_valid_days_default, new Date())): Promise<PemPair> {
  parseSpiffeId(`spiffe://${trust_domain}`);
  const keys = await webcrypto.subtle.generateKey(key_algorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=weft development CA (${trust_domain})`,
    keys,
    notBefore: validity.not_before,
    notAfter: validity.not_after,
    signingAlgorithm: signing_algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'url', value: `spiffe://${trust_domain}` }]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert_pem: cert.toString('pem'), key_pem: await privateKeyPem(keys.privateKey) };
}

/** The trust domain a CA made by createAuthority serves, read from its URI SAN. */
export function trustDomainOfAuthority(ca_cert_pem: string): string {
  const cert = new x509.X509Certificate(ca_cert_pem);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const uri = san?.names.items.find((n) => n.type === 'url')?.value;
  if (uri === undefined) throw invalidArgument('the CA certificate names no trust domain (no spiffe:// URI SAN)');
  return trustDomainOf(uri);
}

export interface MemberCertificateRequest {
  /** The SPIFFE ID the member proves; it must lie in the CA's trust domain. */
  readonly identity: string;
  /** Names a peer may dial the member by, besides its identity. */
  readonly dns_names?: readonly string[];
  readonly ip_addresses?: readonly string[];
  readonly validity?: Validity;
}

/** A member certificate and key signed by `ca`: URI SAN = identity, usable as TLS server and client. */
export async function issueMemberCertificate(ca: PemPair, request: MemberCertificateRequest): Promise<PemPair> {
  const ca_cert = new x509.X509Certificate(ca.cert_pem);
  const domain = trustDomainOfAuthority(ca.cert_pem);
  if (trustDomainOf(request.identity) !== domain) {
    throw invalidArgument(`identity ${request.identity} is outside the CA's trust domain ${domain}`);
  }
  const ca_key = await webcrypto.subtle.importKey('pkcs8', pemBody(ca.key_pem, 'PRIVATE KEY'), key_algorithm, false, ['sign']);
  const keys = await webcrypto.subtle.generateKey(key_algorithm, true, ['sign', 'verify']);
  const validity = request.validity ?? validityFor(member_valid_days_default, new Date());
  const names: x509.JsonGeneralName[] = [
    { type: 'url', value: request.identity },
    ...(request.dns_names ?? ['localhost']).map((value) => ({ type: 'dns' as const, value })),
    ...(request.ip_addresses ?? ['127.0.0.1']).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${request.identity.slice('spiffe://'.length).replaceAll(/[,=+<>#;"\\]/g, '_')}`,
    issuer: ca_cert.subject,
    publicKey: keys.publicKey,
    signingKey: ca_key,
    notBefore: validity.not_before,
    notAfter: validity.not_after,
    signingAlgorithm: signing_algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca_cert),
    ],
  });
  return { cert_pem: cert.toString('pem'), key_pem: await privateKeyPem(keys.privateKey) };
}

/** A validity window that ended yesterday: what an expired certificate looks like. */
export function expiredValidity(now: Date): Validity {
  return { not_before: new Date(now.getTime() - 30 * day_ms), not_after: new Date(now.getTime() - day_ms) };
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

function pemBody(pem: string, label: string): Buffer {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(pem);
  if (m === null) throw invalidArgument(`not a PEM ${label}`);
  return Buffer.from(m[1]!.replaceAll(/\s+/g, ''), 'base64');
}
