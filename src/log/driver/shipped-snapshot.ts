import type { MembershipSnapshot } from './membership.js';

/** A shipped snapshot: the membership as of its index, then the checkpoint bytes. */
export function encodeShippedSnapshot(membership: MembershipSnapshot, state: Uint8Array): Uint8Array {
  const head = Buffer.from(JSON.stringify(membership));
  const out = Buffer.alloc(4 + head.byteLength + state.byteLength);
  out.writeUInt32LE(head.byteLength, 0);
  head.copy(out, 4);
  out.set(state, 4 + head.byteLength);
  return out;
}

export function decodeShippedSnapshot(data: Uint8Array): { membership: MembershipSnapshot; state: Uint8Array } {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const n = buf.readUInt32LE(0);
  const membership = JSON.parse(buf.subarray(4, 4 + n).toString('utf8')) as MembershipSnapshot;
  return { membership, state: buf.subarray(4 + n) };
}
