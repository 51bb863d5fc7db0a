import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alreadyExists, invalidArgument, notFound } from '../common/errors.js';
import { parseSpiffeId } from '../log/transport/spiffe-id.js';
import { createAuthority, issueMemberCertificate, trustDomainOfAuthority } from '../server/certificates.js';

/**
 * `weft certs init` and `weft certs issue`: a development CA and member certificates in one
 * directory, named so the settings that use them are easy to write:
 *
 *   DIR/ca.crt  DIR/ca.key                 the CA (the key never leaves DIR)
 *   DIR/member-N.crt  DIR/member-N.key     member N, its SPIFFE ID in the URI SAN
 */
export const default_trust_domain = 'weft.local';

export interface AuthorityFiles {
  readonly ca_file: string;
  readonly ca_key_file: string;
}

export interface MemberFiles {
  readonly ca_file: string;
  readonly cert_file: string;
  readonly key_file: string;
  readonly identity: string;
}

export function authorityFiles(dir: string): AuthorityFiles {
  return { ca_file: join(dir, 'ca.crt'), ca_key_file: join(dir, 'ca.key') };
}

export async function initAuthority(dir: string, trust_domain: string): Promise<AuthorityFiles> {
  const files = authorityFiles(dir);
  // An existing CA key is never overwritten: members signed by it would silently stop being trusted.
  if (existsSync(files.ca_key_file)) throw alreadyExists(`${files.ca_key_file} exists; a directory holds one CA`);
  const ca = await createAuthority(trust_domain);
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.ca_file, ca.cert_pem);
  writeSecret(files.ca_key_file, ca.key_pem);
  return files;
}

export async function issueMember(dir: string, node_id: number, identity?: string): Promise<MemberFiles> {
  const files = authorityFiles(dir);
  if (!existsSync(files.ca_key_file)) throw notFound(`${files.ca_key_file} does not exist; run 'weft certs init --dir ${dir}' first`);
  const ca = { cert_pem: readFileSync(files.ca_file, 'utf8'), key_pem: readFileSync(files.ca_key_file, 'utf8') };
  const id = identity ?? `spiffe://${trustDomainOfAuthority(ca.cert_pem)}/member/${node_id}`;
  parseSpiffeId(id);
  const pair = await issueMemberCertificate(ca, { identity: id });
  const out: MemberFiles = { ca_file: files.ca_file, cert_file: join(dir, `member-${node_id}.crt`), key_file: join(dir, `member-${node_id}.key`), identity: id };
  writeFileSync(out.cert_file, pair.cert_pem);
  writeSecret(out.key_file, pair.key_pem);
  return out;
}

function writeSecret(path: string, pem: string): void {
  writeFileSync(path, pem, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export const certs_usage = `usage: weft certs init --dir DIR [--trust-domain ${default_trust_domain}]
       weft certs issue --dir DIR --node-id N [--identity spiffe://<trust_domain>/<path>]
`;

/** Runs `weft certs ...`; returns the exit code. */
export async function certsCommand(args: readonly string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  const flags = parseCommandFlags(rest);
  const dir = flags.get('dir');
  if (dir === undefined) throw invalidArgument(`--dir is required\n${certs_usage}`);
  switch (sub) {
    case 'init': {
      const files = await initAuthority(dir, flags.get('trust-domain') ?? default_trust_domain);
      out(`CA certificate ${files.ca_file}\nCA key         ${files.ca_key_file} (keep it private)`);
      return 0;
    }
    case 'issue': {
      const node_id = Number(flags.get('node-id'));
      if (!Number.isSafeInteger(node_id) || node_id < 1) throw invalidArgument(`--node-id must be a whole number of at least 1\n${certs_usage}`);
      const files = await issueMember(dir, node_id, flags.get('identity'));
      out(
        `member ${node_id} proves ${files.identity}\n` +
          `settings: --tls-ca-file ${files.ca_file} --tls-cert-file ${files.cert_file} --tls-key-file ${files.key_file}`,
      );
      return 0;
    }
    default:
      throw invalidArgument(`unknown certs command '${sub ?? ''}'\n${certs_usage}`);
  }
}

/** `--name value` pairs, each once; anything else is INVALID_ARGUMENT. */
export function parseCommandFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!name.startsWith('--') || value === undefined || value.startsWith('--')) throw invalidArgument(`expected '--name value', got '${args.slice(i).join(' ')}'`);
    flags.set(name.slice(2), value);
  }
  return flags;
}
