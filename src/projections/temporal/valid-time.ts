import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import { instantMicros, instantOfMicros } from '../computed/computed-reads.js';

/**
 * Valid time (SPEC 2.4 `temporal`): when a fact held in the world, as opposed to when it was written
 * (the commit_ts). A node of a temporal label keeps one version per interval start; each version is
 * a full property map carrying `valid_from` and, optionally, `valid_to` (TIMESTAMPs, [from, to)).
 *
 * The newest interval start is the node's stored properties (what indexes, constraints and writing
 * statements see); the others are kept beside it, ordered by start. A version's interval ends at its
 * own `valid_to` or at the next version's start, whichever comes first: a later version closes the
 * one before it without rewriting it, so the closing is a reading of the versions, never a second
 * write (docs/temporal.md). Nothing here reads a clock.
 */
export const valid_from_key = 'valid_from';
export const valid_to_key = 'valid_to';

/** Most valid-time versions one node keeps; a write that would add one more is refused. */
export const valid_versions_per_node_max = 4096;

/** Start of a version's interval in epoch microseconds; -Infinity when it has none (valid since always). */
export function validFromMicros(props: PropertyMap): number {
  return instantMicros(props.get(valid_from_key)) ?? Number.NEGATIVE_INFINITY;
}

/** The version's own end in epoch microseconds; Infinity when it names none. */
export function validToMicros(props: PropertyMap): number {
  return instantMicros(props.get(valid_to_key)) ?? Number.POSITIVE_INFINITY;
}

/** A temporal node's versions after a write: `props` the newest start, `earlier` the rest by start. */
export interface ValidVersions {
  readonly props: PropertyMap;
  /** Invariant: ordered by strictly increasing valid_from, every start below props' start. */
  readonly earlier: readonly PropertyMap[];
}

/**
 * The versions after a write whose result is `after`, made from the newest version `head`: the same
 * `valid_from` as the head rewrites the head; another one writes the version starting there
 * (replacing one that starts at the same instant), ahead of the head or behind it.
 */
export function writeValidVersion(head: PropertyMap, earlier: readonly PropertyMap[], after: PropertyMap): ValidVersions {
  const from = validFromMicros(after);
  if (from === validFromMicros(head)) return { props: after, earlier };
  const all = [...earlier, head].filter((v) => validFromMicros(v) !== from);
  all.push(after);
  all.sort((a, b) => validFromMicros(a) - validFromMicros(b));
  return { props: all[all.length - 1]!, earlier: all.slice(0, -1) };
}

/**
 * The version valid at `at_us` with its effective end written as `valid_to`, or undefined when no
 * version's interval holds that instant. `earlier` and `props` as ValidVersions holds them.
 */
export function versionAt(props: PropertyMap, earlier: readonly PropertyMap[], at_us: number): PropertyMap | undefined {
  let next = Number.POSITIVE_INFINITY;
  for (let i = earlier.length; i >= 0; i--) {
    const v = i === earlier.length ? props : earlier[i]!;
    const from = validFromMicros(v);
    if (from <= at_us) return at_us < Math.min(validToMicros(v), next) ? withEnd(v, next) : undefined;
    next = from;
  }
  return undefined;
}

/**
 * An edge of a temporal type read at `at_us`, or undefined when its interval does not hold it.
 * `next_us` is where a later edge with the same identity but for valid_from starts (Infinity when
 * none does, and always for a type identified by a discriminator).
 */
export function edgeAt(props: PropertyMap, next_us: number, at_us: number): PropertyMap | undefined {
  if (validFromMicros(props) > at_us || at_us >= Math.min(validToMicros(props), next_us)) return undefined;
  return withEnd(props, next_us);
}

/**
 * Versions as read with the end a later version gives them, kept while the version lives: a version
 * map never changes, and its end changes only when a version is written next to it, which the end
 * stored beside it tells. Reads of old versions then allocate nothing after the first.
 */
const closedVersions = new WeakMap<PropertyMap, { readonly end_us: number; readonly props: PropertyMap }>();

/** `props` with `valid_to` lowered to `end_us` when a later version ends it sooner. */
function withEnd(props: PropertyMap, end_us: number): PropertyMap {
  if (end_us === Number.POSITIVE_INFINITY || validToMicros(props) <= end_us) return props;
  const known = closedVersions.get(props);
  if (known !== undefined && known.end_us === end_us) return known.props;
  const out = new Map<string, PropertyValue>(props);
  out.set(valid_to_key, instantOfMicros(end_us));
  closedVersions.set(props, { end_us, props: out });
  return out;
}
