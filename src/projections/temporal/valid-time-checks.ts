import type { PropertyMap } from '../../common/property-value.js';
import type { PropertyDefinitionSpec } from '../../log/events.js';
import { DateTimeValue } from '../../common/values/index.js';
import type { Refusal } from '../graph/graph-store.js';
import { valueKindText } from '../catalog/value-types.js';
import { valid_from_key, valid_to_key, valid_versions_per_node_max, validFromMicros, validToMicros } from './valid-time.js';

/**
 * The rules a temporal record obeys on every write path (docs/temporal.md), run at propose and at
 * apply with the other schema checks: `valid_from` present and a TIMESTAMP, `valid_to`, when given,
 * a TIMESTAMP after it, and no more versions per node than the bound.
 */
export const valid_time_keys: readonly string[] = [valid_from_key, valid_to_key];

function refused(reason: string, message: string, metadata: Record<string, string>): Refusal {
  return { code: 'FAILED_PRECONDITION', reason, message, metadata };
}

/**
 * The interval of one record of a temporal label or type (`owner` names it in messages);
 * `metadata` says which record it is.
 */
export function checkValidInterval(owner: string, props: PropertyMap, metadata: Record<string, string>): Refusal | undefined {
  const from = props.get(valid_from_key);
  if (from === undefined) {
    return refused('VALID_FROM_REQUIRED', `${owner} is temporal: every record carries valid_from, the TIMESTAMP its version starts at`, metadata);
  }
  for (const key of valid_time_keys) {
    const v = props.get(key);
    if (v !== undefined && !(v instanceof DateTimeValue)) {
      return refused('PROPERTY_TYPE_MISMATCH', `${owner}.${key} is a TIMESTAMP; the write gives ${valueKindText(v)}`, { ...metadata, property: key, expected_type: 'TIMESTAMP' });
    }
  }
  if (props.has(valid_to_key) && validToMicros(props) <= validFromMicros(props)) {
    return refused('INVALID_VALID_INTERVAL', `${owner}: valid_to must come after valid_from`, metadata);
  }
  return undefined;
}

/** Whether a write may add the version starting at `after`'s valid_from to a node holding `versions`. */
export function checkVersionRoom(owner: string, versions: readonly PropertyMap[], after: PropertyMap, metadata: Record<string, string>): Refusal | undefined {
  if (versions.length < valid_versions_per_node_max) return undefined;
  const from = validFromMicros(after);
  if (versions.some((v) => validFromMicros(v) === from)) return undefined;
  return refused('VALID_VERSIONS_EXHAUSTED', `${owner}: a node keeps at most ${valid_versions_per_node_max} valid-time versions`, metadata);
}

/** A temporal label or type that declares valid_from or valid_to declares it as a TIMESTAMP. */
export function checkValidTimeDeclarations(owner: string, props: readonly PropertyDefinitionSpec[]): string | undefined {
  for (const p of props) {
    if (!valid_time_keys.includes(p.name)) continue;
    if (p.type.kind !== 'scalar' || p.type.scalar !== 'TIMESTAMP') return `${owner}.${p.name} holds valid time and must be declared TIMESTAMP`;
  }
  return undefined;
}
