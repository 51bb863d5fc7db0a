import type * as grpc from '@grpc/grpc-js';
import { errorFromStatus } from '../../src/api/error-catalog.js';

/** Sends raw bytes as a unary request (no encoding), to test how the server takes malformed frames. */
export function rawUnary(client: grpc.Client, path: string, bytes: Buffer): Promise<{ code: number; error: ReturnType<typeof errorFromStatus> | undefined }> {
  const identity = (b: Buffer): Buffer => b;
  return new Promise((resolve) => {
    client.makeUnaryRequest(path, identity, identity, bytes, (err) => {
      if (err === null) resolve({ code: 0, error: undefined });
      else {
        const details = err.metadata?.get('grpc-status-details-bin')[0];
        resolve({ code: err.code, error: errorFromStatus(err.code, err.details, Buffer.isBuffer(details) ? details : undefined) });
      }
    });
  });
}
