/** A request message decoded, or the client's INVALID_ARGUMENT saying why it could not be. */
import { fromBinary, type DescMethod, type Message } from '@bufbuild/protobuf';
import { reasonError } from './error-catalog.js';

export function decodeRequest(method: DescMethod, bytes: Uint8Array): Message {
  try {
    return fromBinary(method.input, bytes);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw reasonError('MALFORMED_REQUEST', `request is not a valid ${method.input.typeName}: ${detail}`, { detail });
  }
}
