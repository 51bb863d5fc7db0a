/**
 * gRPC's length-prefixed messages: the one implementation lives in src/common/grpc/framing.ts, where
 * the SDK can use it too; the server's files import it from here.
 */
export { MessageDeframer, frameMessage, frameMessageParts, grpc_frame_copy_bytes_max, grpc_prefix_bytes, type WireMessage } from '../common/grpc/framing.js';
