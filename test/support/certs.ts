import { createAuthority, expiredValidity, issueMemberCertificate, type PemPair } from '../../src/server/certificates.js';
import type { TlsMaterial } from '../../src/log/transport/tls-material.js';

/**
 * Certificates for tests: a group's CA, members signed by it, and the ones a member must refuse
 * (signed by a foreign CA, expired, proving another identity).
 */
export interface TestAuthority {
  readonly ca: PemPair;
  readonly trust_domain: string;
  /** TLS material for a member proving `identity` (default spiffe://<trust_domain>/member/<node_id>). */
  member(node_id: number, options?: { identity?: string; expired?: boolean }): Promise<TlsMaterial>;
}

export async function testAuthority(trust_domain = 'weft.test'): Promise<TestAuthority> {
  const ca = await createAuthority(trust_domain);
  return {
    ca,
    trust_domain,
    async member(node_id, options = {}) {
      const identity = options.identity ?? `spiffe://${trust_domain}/member/${node_id}`;
      const pair = await issueMemberCertificate(ca, options.expired === true ? { identity, validity: expiredValidity(new Date()) } : { identity });
      return { ca: Buffer.from(ca.cert_pem), cert: Buffer.from(pair.cert_pem), key: Buffer.from(pair.key_pem) };
    },
  };
}

/** Material whose certificate another CA signed, while it trusts `trusted` (it dials and accepts as a stranger would). */
export async function foreignMember(trusted: TestAuthority, node_id: number): Promise<TlsMaterial> {
  const foreign = await testAuthority(trusted.trust_domain);
  const own = await foreign.member(node_id);
  return { ...own, ca: Buffer.from(trusted.ca.cert_pem) };
}
