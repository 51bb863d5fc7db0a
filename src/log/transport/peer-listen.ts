/**
 * Opening the peer port, the same for both HTTP/2 engines: a failure to listen (a port in use, an
 * address not ours) is UNAVAILABLE naming the port, and once listening a later server error is left
 * to the connections it concerns.
 */
import type { Server } from 'node:net';
import { unavailable } from '../../common/errors.js';

/** Listens on host:port (0: one the OS picks); answers the port bound. */
export async function listenPeerPort(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error): void => reject(unavailable(`peer port ${host}:${port}: ${e.message}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  server.on('error', () => undefined);
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}
