import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../database.js';
import type { ReadClock } from './read-views.js';
import { TtlSweeper } from './ttl-sweeper.js';

/** Runs the TTL sweeper every `ttl_sweep_ms` while the member serves; only the leader proposes expiries. */
export interface TtlRuntime {
  readonly sweeper: TtlSweeper;
  stop(): void;
}

export function startTtlSweeps(
  db: Database,
  config: Pick<ServerConfig, 'ttl_sweep_ms' | 'ttl_expire_batch_max'>,
  concern: () => ConcernWait,
  clock: ReadClock,
  log: (line: string) => void,
): TtlRuntime {
  const sweeper = new TtlSweeper(db, { expire_batch_max: config.ttl_expire_batch_max, concern, clock });
  const timer = setInterval(() => {
    sweeper.sweep().catch((e: unknown) => log(`weft: TTL sweep failed: ${e instanceof Error ? e.message : String(e)}`));
  }, config.ttl_sweep_ms);
  timer.unref();
  return {
    sweeper,
    stop: () => clearInterval(timer),
  };
}
