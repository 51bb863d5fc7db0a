/**
 * A request message encoded as parts to be written one after another, so a large `bytes` field (a
 * blob chunk's data) goes on the wire from the caller's own buffer: protobuf-es would copy it into
 * its writer (growing that buffer as it goes), and for 256 KiB chunks that copy and its garbage are
 * most of what an upload costs its client.
 *
 * Protobuf lets fields come in any order, so the message is the rest of it encoded as usual, then
 * the large field's tag and length, then its bytes. The receiver decodes the same message.
 */
import { fromBinary, ScalarType, toBinary, type DescField, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
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

/** A message decoded from parts with its large `bytes` field left in the parts it arrived in. */
export interface PartedMessage<S extends DescMessage> {
  /** The message; `field`'s own value in it is empty: its bytes are `field_parts`. */
  readonly message: MessageShape<S>;
  readonly field: DescField;
  /** Views of the given parts, in order, never copies. Invariant: no part is empty. */
  readonly field_parts: readonly Buffer[];
}

/**
 * The receiving side of encodeMessageParts: `parts` (one message's bytes, in order) decoded without
 * joining them, the first standalone `bytes` field of the schema kept as views of the parts. The
 * other fields (a few bytes: a blob chunk's sequence) are copied out and decoded as usual.
 * Undefined when the schema has no such field or the top-level fields do not scan (truncated,
 * groups): the caller then joins the parts and decodes them the usual way, which says what is wrong.
 */
export function decodeMessageParts<S extends DescMessage>(schema: S, parts: readonly Buffer[]): PartedMessage<S> | undefined {
  const field = bytesFieldsOf(schema)[0];
  if (field === undefined) return undefined;
  const scan = new PartsCursor(parts);
  /** [start, end) of every top-level field other than `field`, in order. */
  const rest: number[] = [];
  let rest_bytes = 0;
  let payload: { start: number; end: number } | undefined;
  while (!scan.atEnd) {
    const start = scan.position;
    const tag = scan.varint();
    if (tag === undefined) return undefined;
    const wire_type = tag % 8;
    let payload_start = -1;
    switch (wire_type) {
      case 0:
        if (scan.varint() === undefined) return undefined;
        break;
      case 1:
        if (!scan.skip(8)) return undefined;
        break;
      case 2: {
        const length = scan.varint();
        if (length === undefined) return undefined;
        payload_start = scan.position;
        if (!scan.skip(length)) return undefined;
        break;
      }
      case 5:
        if (!scan.skip(4)) return undefined;
        break;
      default:
        // Groups (3, 4) and invalid wire types: left to the usual decoder.
        return undefined;
    }
    // A repeated occurrence of a scalar field replaces the earlier one, as the usual decoder does.
    if (wire_type === wire_type_length_delimited && Math.floor(tag / 8) === field.number) payload = { start: payload_start, end: scan.position };
    else {
      rest.push(start, scan.position);
      rest_bytes += scan.position - start;
    }
  }
  const others = Buffer.allocUnsafe(rest_bytes);
  for (let i = 0, at = 0; i < rest.length; i += 2) at += copyRange(parts, rest[i]!, rest[i + 1]!, others, at);
  const message = fromBinary(schema, others);
  return { message, field, field_parts: payload === undefined ? [] : sliceRange(parts, payload.start, payload.end) };
}

/** A read position over a message's parts, for scanning its top-level fields. */
class PartsCursor {
  /** Absolute offset into the concatenated parts. */
  position = 0;
  private part = 0;
  private offset = 0;
  private readonly total: number;

  constructor(private readonly parts: readonly Buffer[]) {
    this.total = parts.reduce((n, p) => n + p.length, 0);
  }

  get atEnd(): boolean {
    return this.position >= this.total;
  }

  /** A varint (exact up to 2^53); undefined when the parts end inside it or it is over 10 bytes. */
  varint(): number | undefined {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.byte();
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    return undefined;
  }

  /** Moves `n` bytes on; false when fewer remain. */
  skip(n: number): boolean {
    if (this.total - this.position < n) return false;
    this.position += n;
    while (n > 0) {
      const left = this.parts[this.part]!.length - this.offset;
      if (n < left) {
        this.offset += n;
        return true;
      }
      n -= left;
      this.part++;
      this.offset = 0;
    }
    return true;
  }

  private byte(): number | undefined {
    while (this.part < this.parts.length && this.offset >= this.parts[this.part]!.length) {
      this.part++;
      this.offset = 0;
    }
    if (this.part >= this.parts.length) return undefined;
    this.position++;
    return this.parts[this.part]![this.offset++];
  }
}

/** Views of the bytes [start, end) of the concatenated parts. */
function sliceRange(parts: readonly Buffer[], start: number, end: number): Buffer[] {
  const out: Buffer[] = [];
  let base = 0;
  for (const p of parts) {
    const from = Math.max(start, base);
    const to = Math.min(end, base + p.length);
    if (from < to) out.push(p.subarray(from - base, to - base));
    base += p.length;
    if (base >= end) break;
  }
  return out;
}

/** Copies the bytes [start, end) of the concatenated parts into `into` at `at`; answers the count. */
function copyRange(parts: readonly Buffer[], start: number, end: number, into: Buffer, at: number): number {
  let n = 0;
  for (const p of sliceRange(parts, start, end)) n += p.copy(into, at + n);
  return n;
}
