/**
 * gRPC health checking (grpc.health.v1): a board of serving statuses the server sets, served by
 * Check, List and Watch. The empty service name stands for the server as a whole.
 */
import { WeftError } from '../common/errors.js';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '../gen/grpc/health/v1/health_pb.js';
import { implement, type RegisteredService } from './handlers.js';

export { ServingStatus };

type Listener = (status: ServingStatus) => void;

export class HealthBoard {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(initial: ServingStatus = ServingStatus.SERVING) {
    this.statuses.set('', initial);
  }

  /** Sets a service's status and tells its watchers when it changed. */
  set(service: string, status: ServingStatus): void {
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    for (const listener of this.listeners.get(service) ?? []) listener(status);
  }

  get(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  all(): ReadonlyMap<string, ServingStatus> {
    return this.statuses;
  }

  /** Every known service NOT_SERVING: called when the server begins to stop. */
  stopServing(): void {
    for (const service of [...this.statuses.keys()]) this.set(service, ServingStatus.NOT_SERVING);
  }

  /**
   * The status now, then each change, until the signal aborts. A slow watcher sees only the latest
   * status, never a queue: health is a level, not a log.
   */
  async *watch(service: string, signal: AbortSignal): AsyncGenerator<ServingStatus, void, undefined> {
    let pending: ServingStatus | undefined = this.statuses.get(service) ?? ServingStatus.SERVICE_UNKNOWN;
    let wake: (() => void) | undefined;
    const listener: Listener = (status) => {
      pending = status;
      wake?.();
    };
    const onAbort = (): void => wake?.();
    let set = this.listeners.get(service);
    if (set === undefined) this.listeners.set(service, (set = new Set()));
    set.add(listener);
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (pending !== undefined) {
          const status: ServingStatus = pending;
          pending = undefined;
          yield status;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      set.delete(listener);
      signal.removeEventListener('abort', onAbort);
    }
  }
}

export function healthService(board: HealthBoard): RegisteredService {
  return implement(Health, {
    check: async (req) => {
      const status = board.get(req.service);
      if (status === undefined) throw new WeftError('NOT_FOUND', `unknown service "${req.service}"`);
      return { status };
    },
    list: async () => {
      const statuses: Record<string, { status: ServingStatus }> = {};
      for (const [service, status] of board.all()) statuses[service] = { status };
      return { statuses };
    },
    watch: async function* (req, ctx) {
      for await (const status of board.watch(req.service, ctx.signal)) yield { status };
    },
  });
}
