/**
 * What the binder knows of a value's type before any row exists. 'any' means unknown (a parameter,
 * a property, most function results); a check only fires when the type is known and wrong.
 */
export type ScalarTypeName =
  | 'any'
  | 'null'
  | 'boolean'
  | 'integer'
  | 'float'
  | 'number'
  | 'string'
  | 'map'
  | 'node'
  | 'relationship'
  | 'path'
  | InstantTypeName
  | 'duration';

/** The temporal instants; with DURATION, the temporal types a constructor's result is known to have. */
export type InstantTypeName = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';
export const instant_kinds: readonly InstantTypeName[] = ['date', 'localtime', 'time', 'localdatetime', 'datetime'];
export const temporal_kinds: readonly ScalarTypeName[] = [...instant_kinds, 'duration'];

export function isInstant(t: StaticType): boolean {
  return (instant_kinds as readonly string[]).includes(t.kind);
}

export function isTemporal(t: StaticType): boolean {
  return (temporal_kinds as readonly string[]).includes(t.kind);
}

export type StaticType = { readonly kind: ScalarTypeName } | { readonly kind: 'list'; readonly element: StaticType };

const scalars = new Map<ScalarTypeName, StaticType>();
export function scalar(kind: ScalarTypeName): StaticType {
  let t = scalars.get(kind);
  if (t === undefined) {
    t = { kind };
    scalars.set(kind, t);
  }
  return t;
}

export const any_type = scalar('any');
export const null_type = scalar('null');
export const boolean_type = scalar('boolean');
export const integer_type = scalar('integer');
export const float_type = scalar('float');
export const number_type = scalar('number');
export const string_type = scalar('string');
export const map_type = scalar('map');
export const node_type = scalar('node');
export const relationship_type = scalar('relationship');
export const path_type = scalar('path');
export const duration_type = scalar('duration');

export function listOf(element: StaticType): StaticType {
  return { kind: 'list', element };
}

export function elementOf(t: StaticType): StaticType {
  return t.kind === 'list' ? t.element : any_type;
}

/** The least type covering both: equal types stay, integer and float meet in number, null joins anything. */
export function join(a: StaticType, b: StaticType): StaticType {
  if (a.kind === 'null') return b;
  if (b.kind === 'null') return a;
  if (a.kind === 'list' && b.kind === 'list') return listOf(join(a.element, b.element));
  if (a.kind === b.kind) return a;
  const numeric = (k: string): boolean => k === 'integer' || k === 'float' || k === 'number';
  if (numeric(a.kind) && numeric(b.kind)) return number_type;
  return any_type;
}

export function isKnown(t: StaticType): boolean {
  return t.kind !== 'any' && t.kind !== 'null';
}

export function isNumeric(t: StaticType): boolean {
  return t.kind === 'integer' || t.kind === 'float' || t.kind === 'number';
}

/** True when a value of type t could be a boolean (or null) at run time. */
export function mayBeBoolean(t: StaticType): boolean {
  return t.kind === 'boolean' || t.kind === 'any' || t.kind === 'null';
}

/** True when a value of type t could be one of the given kinds (or null) at run time. */
export function mayBe(t: StaticType, ...kinds: readonly (ScalarTypeName | 'list')[]): boolean {
  if (t.kind === 'any' || t.kind === 'null') return true;
  if (t.kind === 'number' && (kinds.includes('integer') || kinds.includes('float'))) return true;
  if ((t.kind === 'integer' || t.kind === 'float') && kinds.includes('number')) return true;
  return kinds.includes(t.kind);
}

export function describeType(t: StaticType): string {
  if (t.kind === 'list') return `List<${describeType(t.element)}>`;
  const names: Record<ScalarTypeName, string> = {
    any: 'Any',
    null: 'Null',
    boolean: 'Boolean',
    integer: 'Integer',
    float: 'Float',
    number: 'Number',
    string: 'String',
    map: 'Map',
    node: 'Node',
    relationship: 'Relationship',
    path: 'Path',
    date: 'Date',
    localtime: 'LocalTime',
    time: 'Time',
    localdatetime: 'LocalDateTime',
    datetime: 'DateTime',
    duration: 'Duration',
  };
  return names[t.kind];
}
