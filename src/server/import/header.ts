/**
 * The header of a node or relationship file, as neo4j-admin import reads it: each column is
 * `name:type`, where the type is a property type (`int`, `float`, `string[]`, ...) or a field
 * (`ID(space)`, `LABEL`, `START_ID(space)`, `END_ID(space)`, `TYPE`, `IGNORE`). A column without a
 * type is a string property.
 */
export type ScalarKind = 'int' | 'float' | 'boolean' | 'string' | 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime' | 'duration' | 'point';

export type HeaderColumn =
  /** `name` is the property the id is also stored under; '' when the column is `:ID`. */
  | { readonly kind: 'id'; readonly name: string; readonly space: string }
  | { readonly kind: 'label' }
  | { readonly kind: 'property'; readonly name: string; readonly scalar: ScalarKind; readonly array: boolean }
  | { readonly kind: 'start_id'; readonly space: string }
  | { readonly kind: 'end_id'; readonly space: string }
  | { readonly kind: 'type' }
  | { readonly kind: 'ignore' };

export type FileKind = 'nodes' | 'relationships';

/** The ID space of columns that name none. */
export const default_id_space = '';

const SCALARS: ReadonlyMap<string, ScalarKind> = new Map([
  ['int', 'int'],
  ['long', 'int'],
  ['short', 'int'],
  ['byte', 'int'],
  ['float', 'float'],
  ['double', 'float'],
  ['boolean', 'boolean'],
  ['char', 'string'],
  ['string', 'string'],
  ['date', 'date'],
  ['localtime', 'localtime'],
  ['time', 'time'],
  ['localdatetime', 'localdatetime'],
  ['datetime', 'datetime'],
  ['duration', 'duration'],
  ['point', 'point'],
]);

/** A header that cannot be used: the import stops before reading any row. */
export class HeaderError extends Error {}

export function parseHeader(fields: readonly string[], kind: FileKind, where: string): HeaderColumn[] {
  const columns = fields.map((f) => parseColumn(f.trim(), where));
  const count = (k: HeaderColumn['kind']): number => columns.filter((c) => c.kind === k).length;
  if (kind === 'nodes') {
    for (const k of ['start_id', 'end_id', 'type'] as const) {
      if (count(k) > 0) throw new HeaderError(`${where}: a node file's header has a ${k.toUpperCase()} column`);
    }
    if (count('id') > 1) throw new HeaderError(`${where}: a node file's header has more than one ID column`);
  } else {
    if (count('id') > 0 || count('label') > 0) throw new HeaderError(`${where}: a relationship file's header has an ID or LABEL column`);
    if (count('start_id') !== 1 || count('end_id') !== 1) {
      throw new HeaderError(`${where}: a relationship file's header needs exactly one START_ID and one END_ID column`);
    }
    if (count('type') > 1) throw new HeaderError(`${where}: a relationship file's header has more than one TYPE column`);
  }
  const names = new Set<string>();
  for (const c of columns) {
    const name = c.kind === 'property' || (c.kind === 'id' && c.name !== '') ? c.name : undefined;
    if (name === undefined) continue;
    if (names.has(name)) throw new HeaderError(`${where}: property ${name} appears twice in the header`);
    names.add(name);
  }
  return columns;
}

function parseColumn(text: string, where: string): HeaderColumn {
  const colon = text.lastIndexOf(':');
  if (colon < 0) {
    if (text === '') throw new HeaderError(`${where}: an empty header column (use :IGNORE to skip a column)`);
    return { kind: 'property', name: text, scalar: 'string', array: false };
  }
  const name = text.slice(0, colon);
  const spec = text.slice(colon + 1);
  const field = /^(ID|START_ID|END_ID)(?:\(([^)]*)\))?$/i.exec(spec);
  if (field !== null) {
    const space = field[2] ?? default_id_space;
    const which = field[1]!.toUpperCase();
    if (which === 'ID') return { kind: 'id', name, space };
    return which === 'START_ID' ? { kind: 'start_id', space } : { kind: 'end_id', space };
  }
  switch (spec.toUpperCase()) {
    case 'LABEL':
      return { kind: 'label' };
    case 'TYPE':
      return { kind: 'type' };
    case 'IGNORE':
      return { kind: 'ignore' };
  }
  const array = spec.endsWith('[]');
  const scalar = SCALARS.get((array ? spec.slice(0, -2) : spec).toLowerCase());
  if (scalar === undefined) throw new HeaderError(`${where}: unknown type '${spec}' in header column '${text}'`);
  if (name === '') throw new HeaderError(`${where}: the property column '${text}' has no name`);
  return { kind: 'property', name, scalar, array };
}
