import type { MembershipSnapshot } from './membership.js';

/**
 * The head of a snapshot stream besides its bytes: the membership as of the snapshot, and the files
 * its bytes are, in order (the checkpoint first, then the files saved beside it). A sender of an
 * older release names no files: its bytes are the checkpoint alone.
 */
export interface ShippedManifest {
  readonly membership: MembershipSnapshot;
  readonly files: readonly ShippedFile[];
}

export interface ShippedFile {
  /** A plain file name (no directory): the receiver creates it in its own directory. */
  readonly name: string;
  readonly bytes: number;
}

/** A name the receiver will create: letters, digits, '.', '_' and '-', not '.' or '..'. */
const file_name = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;
const legacy_checkpoint_name = 'checkpoint.ckpt';

export function encodeShippedManifest(manifest: ShippedManifest): Uint8Array {
  return Buffer.from(JSON.stringify(manifest));
}

/** Decodes and checks a head's ref (of a snapshot of `data_bytes`); throws on a name the receiver must not create, or none. */
export function decodeShippedManifest(ref: Uint8Array, data_bytes: number): ShippedManifest {
  const raw = JSON.parse(Buffer.from(ref.buffer, ref.byteOffset, ref.byteLength).toString('utf8')) as Partial<ShippedManifest> & MembershipSnapshot;
  if (raw.files === undefined) {
    // An older sender's ref is the membership itself; its data is one checkpoint file.
    return { membership: raw, files: [{ name: legacy_checkpoint_name, bytes: data_bytes }] };
  }
  if (raw.membership === undefined || raw.files.length === 0) throw new Error('a snapshot head names no files');
  const names = new Set<string>();
  for (const f of raw.files) {
    if (!file_name.test(f.name) || names.has(f.name)) throw new Error(`a snapshot head names the file '${f.name}'`);
    if (!Number.isSafeInteger(f.bytes) || f.bytes < 0) throw new Error(`a snapshot head gives '${f.name}' ${f.bytes} bytes`);
    names.add(f.name);
  }
  return { membership: raw.membership, files: raw.files };
}
