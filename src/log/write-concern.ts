import { invalidArgument } from '../common/errors.js';
import type { ConcernWait, JournalLevel } from './driver/log-driver.js';

/**
 * SPEC 4.1 WriteConcern rules, turned into what the driver waits for. `members` is the group's size.
 */
export interface WriteConcernRequest {
  /** 0 = unspecified (JOURNAL). */
  readonly journal?: 'JOURNAL' | 'CACHE' | 'MEMORY' | 'UNSPECIFIED';
  readonly timeout_ms?: number;
  /** Unset or 0 with no mode: MAJORITY. An explicit 0 is expressed by `acks_set`. */
  readonly acks?: number;
  readonly acks_set?: boolean;
  readonly mode?: 'MAJORITY' | 'UNSPECIFIED';
}

export interface ConcernDefaults {
  /** 0 means majority. */
  readonly acks: number;
  readonly journal: 'JOURNAL' | 'CACHE' | 'MEMORY';
  readonly timeout_ms: number;
}

export function resolveWriteConcern(request: WriteConcernRequest | undefined, defaults: ConcernDefaults, members: number): ConcernWait {
  const majority = Math.floor(members / 2) + 1;
  if (request === undefined) {
    return { acks: defaults.acks === 0 ? majority : Math.min(defaults.acks, members), level: level(defaults.journal), timeout_ms: defaults.timeout_ms };
  }
  const journal = request.journal === undefined || request.journal === 'UNSPECIFIED' ? 'JOURNAL' : request.journal;
  const explicitAcks = request.acks_set === true || (request.acks ?? 0) > 0;
  if (explicitAcks && request.mode === 'MAJORITY') {
    throw invalidArgument('write concern: give either acks or mode MAJORITY, not both');
  }
  const acks = explicitAcks ? (request.acks ?? 0) : majority;
  if (acks > members) throw invalidArgument(`write concern acks ${acks} exceeds the group's ${members} member(s)`);
  const byMajority = !explicitAcks;
  if (journal !== 'JOURNAL' && (acks > 1 || byMajority)) {
    throw invalidArgument(`write concern journal ${journal} is accepted only with acks 0 or 1`);
  }
  const timeout_ms = request.timeout_ms ?? 0;
  if (!Number.isInteger(timeout_ms) || timeout_ms < 0) throw invalidArgument(`write concern timeout_ms ${timeout_ms} is not valid`);
  return { acks, level: level(journal), timeout_ms };
}

function level(journal: 'JOURNAL' | 'CACHE' | 'MEMORY'): JournalLevel {
  return journal === 'JOURNAL' ? 'journal' : journal === 'CACHE' ? 'cache' : 'memory';
}
