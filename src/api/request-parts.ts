/**
 * Message-parts delivery: a method may take its requests with their large `bytes` field in the
 * pieces the request arrived in over HTTP/2 rather than joined into one buffer, which for a blob
 * upload is a copy of every uploaded byte. The transport decodes such a request with the field
 * empty and records its parts here; the handler asks for them with `bytesFieldParts`. Requests of
 * other methods, and of these methods over REST or when compressed, arrive whole as before, and
 * `bytesFieldParts` answers the field's own value.
 */
import type { DescMessage, DescMethod, Message } from '@bufbuild/protobuf';
import { decodeMessageParts, type PartedMessage } from '../common/grpc/message-parts.js';
import { decodeRequest } from './grpc-decode.js';

/**
 * Where a request decoded from parts keeps the parts of its large bytes field: a symbol-keyed
 * property of the message itself, so they live and die with it. (A WeakMap from message to parts
 * was measured to make the server's garbage collector run full collections several times as often
 * during an upload: its table sits in the old generation and every entry is an ephemeron.)
 */
const field_parts = Symbol('weft.request-parts');

interface WithParts {
  [field_parts]?: readonly Uint8Array[];
}

/**
 * The bytes of `value`, a bytes field of `message`, as parts: those the transport kept when it
 * decoded the message from parts, or `[value]`.
 */
export function bytesFieldParts(message: object, value: Uint8Array): readonly Uint8Array[] {
  return (message as WithParts)[field_parts] ?? [value];
}

/**
 * One request of a parted method decoded from its wire parts (uncompressed). Falls back to joining
 * them when the message does not scan as parts; a malformed request is the client's
 * INVALID_ARGUMENT either way.
 */
export function decodeRequestParts(method: DescMethod, parts: readonly Buffer[], bytes_total: number): Message {
  let decoded: PartedMessage<DescMessage> | undefined;
  try {
    decoded = decodeMessageParts(method.input, parts);
  } catch {
    // The other fields did not decode: the usual decoder says why, in the usual words.
    decoded = undefined;
  }
  if (decoded === undefined) return decodeRequest(method, parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes_total));
  (decoded.message as WithParts)[field_parts] = decoded.field_parts;
  return decoded.message;
}
