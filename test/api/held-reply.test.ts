import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { HeldReply, implement } from '../../src/api/handlers.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { startServers, type Servers } from './harness.js';

/** A wait the test settles by hand, as a write's concern would settle. */
interface Wait {
  readonly settled: Promise<void>;
  resolve(): void;
  reject(e: Error): void;
}

function wait(): Wait {
  let resolve = (): void => {};
  let reject = (_: Error): void => {};
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { settled, resolve, reject };
}

/** Resolves after a few turns of the event loop: long enough for a reply that was free to go to arrive. */
const turns = async (n = 20): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('a held reply: built while its wait runs, sent once it resolves', () => {
  let servers: Servers;
  let client: ReturnType<typeof createGrpcClient<typeof GraphService>>;
  /** The wait of the call in progress, and whether its reply had been read (encoded) before the wait settled. */
  let current: Wait;
  let encoded_before_settled: boolean | undefined;

  beforeAll(async () => {
    const graph = implement(GraphService, {
      async createNode(req) {
        const w = current;
        let done = false;
        void w.settled.then(
          () => (done = true),
          () => (done = true),
        );
        encoded_before_settled = undefined;
        const reply = {
          nodeId: 7n,
          get labels(): string[] {
            encoded_before_settled ??= !done;
            return req.labels;
          },
        };
        return new HeldReply(reply, w.settled);
      },
    });
    servers = await startServers([graph]);
    client = createGrpcClient(GraphService, servers.grpc_address);
  });
  afterAll(async () => {
    client.close();
    await servers.stop();
  });

  type Created = Awaited<ReturnType<typeof client.createNode>>;
  const transports = {
    grpc: (labels: string[]): Promise<Created> => client.createNode({ labels }),
    rest: async (labels: string[]): Promise<Created> => (await restCall(servers.rest_url, GraphService.method.createNode, { labels })) as Created,
  };

  for (const [transport, call] of Object.entries(transports)) {
    it(`${transport}: the reply is encoded during the wait and arrives only after it resolves`, async () => {
      current = wait();
      let arrived = false;
      const answer = call(['Held']).then((r) => {
        arrived = true;
        return r;
      });
      await turns();
      expect(arrived).toBe(false);
      expect(encoded_before_settled).toBe(true);
      current.resolve();
      const node = await answer;
      expect(node.nodeId).toBe(7n);
      expect(node.labels).toEqual(['Held']);
    });

    it(`${transport}: a wait that rejects fails the call with its error, and the built reply is never sent`, async () => {
      current = wait();
      const answer = call(['Lost']).then(
        () => undefined,
        (e: unknown) => e,
      );
      await turns();
      current.reject(new WeftError('UNAVAILABLE', 'leadership was lost before the write committed; its outcome is unknown', 'OUTCOME_UNKNOWN'));
      const failed = await answer;
      expect(failed).toBeInstanceOf(WeftError);
      expect([(failed as WeftError).code, (failed as WeftError).reason]).toEqual(['UNAVAILABLE', 'OUTCOME_UNKNOWN']);
    });
  }
});
