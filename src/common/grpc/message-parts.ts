/**
 * A request message encoded as parts to be written one after another, so a large `bytes` field (a
 * blob chunk's data) goes on the wire from the caller's own buffer: protobuf-es would copy it into
 * its writer (growing that buffer as it goes), and for 256 KiB chunks that copy and its garbage are
 * most of what an upload costs its client.
 *
 * Protobuf lets fields come in any order, so the message is the rest of it encoded as usual, then
 * the large field's tag and length, then its bytes. The receiver decodes the same message.
 */
import { ScalarType, toBinary, type DescField, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { grpc_frame_copy_bytes_max } from './framing.js';

/** Wire type 2 (length-delimited) in a field's tag. */
const wire_type_length_delimited = 2;

/** The standalone `bytes` fields of each message schema, found once. */
const bytes_fields = new WeakMap<DescMessage, readonly DescField[]>();

function bytesFieldsOf(schema: DescMessage): readonly DescField[] {
  let fields = bytes_fields.get(schema);
  if (fields === undefined) {
    fields = schema.fields.filter((f) => f.fieldKind === 'scalar' && f.scalar === ScalarType.BYTES && f.oneof === undefined);
    bytes_fields.set(schema, fields);
  }
  return fields;
}

/**
 * `message` encoded: one part, or, when a standalone `bytes` field holds at least
 * `grpc_frame_copy_bytes_max` bytes, the rest of the message with that field's tag and length
 * followed by the field's own bytes, shared and not copied.
 */
export function encodeMessageParts<S extends DescMessage>(schema: S, message: MessageShape<S>): Uint8Array[] {
  for (const field of bytesFieldsOf(schema)) {
    const fields = message as unknown as Record<string, unknown>;
    const payload = fields[field.localName];
    if (!(payload instanceof Uint8Array) || payload.byteLength < grpc_frame_copy_bytes_max) continue;
    const rest = toBinary(schema, { ...message, [field.localName]: empty } as MessageShape<S>);
    const head = Buffer.allocUnsafe(rest.byteLength + varintBytes((field.number << 3) | wire_type_length_delimited) + varintBytes(payload.byteLength));
    head.set(rest, 0);
    let at = writeVarint(head, rest.byteLength, (field.number << 3) | wire_type_length_delimited);
    at = writeVarint(head, at, payload.byteLength);
    return [head.subarray(0, at), payload];
  }
  return [toBinary(schema, message)];
}

const empty = new Uint8Array(0);

function varintBytes(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    bytes++;
  }
  return bytes;
}

/** Writes `n` (< 2^53) as a varint at `at`; returns the offset after it. */
function writeVarint(into: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    into[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  into[at++] = n;
  return at;
}
