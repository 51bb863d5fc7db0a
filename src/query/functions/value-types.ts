import { isStorableProperty } from '../../common/values/storable.js';
import { kindOf, type Value, type ValueKind } from '../../common/values/value.js';

/**
 * Cypher's value types as type predicates (`x IS :: LIST<INTEGER NOT NULL>`) and valueType() name
 * them: a closed union of alternatives, each a type name, an element type for LIST, and whether null
 * is excluded. Every type but NOTHING and those marked NOT NULL admits null.
 *
 * Types travel as canonical text (`INTEGER NOT NULL | LIST<STRING>`): the parser turns what was
 * written, synonyms included, into that text once, and the evaluation parses it back once per text.
 */

/** Names of the types a value can have, in the order valueType() lists the members of a union. */
const VALUE_TYPE_NAMES = [
  'BOOLEAN',
  'STRING',
  'INTEGER',
  'FLOAT',
  'DATE',
  'LOCAL TIME',
  'ZONED TIME',
  'LOCAL DATETIME',
  'ZONED DATETIME',
  'DURATION',
  'POINT',
  'VECTOR',
  'BYTES',
  'NODE',
  'RELATIONSHIP',
  'MAP',
  'LIST',
  'PATH',
] as const;
type ValueTypeName = (typeof VALUE_TYPE_NAMES)[number];

/** The names a type predicate may use besides those of the values themselves. */
type TypeName = ValueTypeName | 'ANY' | 'NOTHING' | 'NULL' | 'PROPERTY VALUE';

export interface TypeAlternative {
  readonly name: TypeName;
  /** Only for LIST: the type of every element. */
  readonly element?: CypherType;
  /** NOT NULL was written (or implied, for NOTHING): null is not of this type. */
  readonly not_null: boolean;
}

/** A closed union; one alternative for a plain type. Never empty. */
export type CypherType = readonly TypeAlternative[];

/** Every spelling accepted, upper case with single spaces, mapped to its canonical name. */
const SYNONYMS: ReadonlyMap<string, TypeName> = new Map<string, TypeName>([
  ['ANY', 'ANY'],
  ['ANY VALUE', 'ANY'],
  ['NOTHING', 'NOTHING'],
  ['NULL', 'NULL'],
  ['BOOLEAN', 'BOOLEAN'],
  ['BOOL', 'BOOLEAN'],
  ['STRING', 'STRING'],
  ['VARCHAR', 'STRING'],
  ['INTEGER', 'INTEGER'],
  ['INT', 'INTEGER'],
  ['SIGNED INTEGER', 'INTEGER'],
  ['INTEGER64', 'INTEGER'],
  ['INT64', 'INTEGER'],
  ['FLOAT', 'FLOAT'],
  ['FLOAT64', 'FLOAT'],
  ['DATE', 'DATE'],
  ['LOCAL TIME', 'LOCAL TIME'],
  ['TIME WITHOUT TIME ZONE', 'LOCAL TIME'],
  ['TIME WITHOUT TIMEZONE', 'LOCAL TIME'],
  ['ZONED TIME', 'ZONED TIME'],
  ['TIME WITH TIME ZONE', 'ZONED TIME'],
  ['TIME WITH TIMEZONE', 'ZONED TIME'],
  ['LOCAL DATETIME', 'LOCAL DATETIME'],
  ['TIMESTAMP WITHOUT TIME ZONE', 'LOCAL DATETIME'],
  ['TIMESTAMP WITHOUT TIMEZONE', 'LOCAL DATETIME'],
  ['ZONED DATETIME', 'ZONED DATETIME'],
  ['TIMESTAMP WITH TIME ZONE', 'ZONED DATETIME'],
  ['TIMESTAMP WITH TIMEZONE', 'ZONED DATETIME'],
  ['DURATION', 'DURATION'],
  ['POINT', 'POINT'],
  ['VECTOR', 'VECTOR'],
  ['BYTES', 'BYTES'],
  ['NODE', 'NODE'],
  ['ANY NODE', 'NODE'],
  ['VERTEX', 'NODE'],
  ['ANY VERTEX', 'NODE'],
  ['RELATIONSHIP', 'RELATIONSHIP'],
  ['ANY RELATIONSHIP', 'RELATIONSHIP'],
  ['EDGE', 'RELATIONSHIP'],
  ['ANY EDGE', 'RELATIONSHIP'],
  ['MAP', 'MAP'],
  ['ANY MAP', 'MAP'],
  ['PATH', 'PATH'],
  ['ANY PATH', 'PATH'],
  ['LIST', 'LIST'],
  ['ARRAY', 'LIST'],
  ['PROPERTY VALUE', 'PROPERTY VALUE'],
  ['ANY PROPERTY VALUE', 'PROPERTY VALUE'],
]);

/** What the parser hands over for one alternative: the words of its name as written, and the rest. */
export interface WrittenAlternative {
  readonly words: readonly string[];
  readonly element?: readonly WrittenAlternative[];
  readonly not_null: boolean;
}

/** The type a written type expression denotes, or the text of what is wrong with it. */
export function resolveWrittenType(written: readonly WrittenAlternative[]): CypherType | string {
  // null belongs to no one alternative, so a union is nullable as a whole or not at all (Neo4j 5).
  if (written.some((w) => w.not_null) && written.some((w) => !w.not_null)) {
    return 'all types in a closed dynamic union must be nullable, or each be followed by NOT NULL';
  }
  const out: TypeAlternative[] = [];
  for (const w of written) {
    const spelled = w.words.map((x) => x.toUpperCase()).join(' ');
    // `INTEGER LIST` and `INTEGER ARRAY` are LIST<INTEGER> written the other way round (the manual's synonyms).
    const last = spelled.split(' ').pop();
    if (w.words.length > 1 && w.element === undefined && (last === 'LIST' || last === 'ARRAY') && !SYNONYMS.has(spelled)) {
      const element = resolveWrittenType([{ words: w.words.slice(0, -1), not_null: false }]);
      if (typeof element === 'string') return element;
      out.push({ name: 'LIST', element, not_null: w.not_null });
      continue;
    }
    const name = SYNONYMS.get(spelled);
    if (name === undefined) return `unknown type ${spelled}`;
    if (name === 'LIST') {
      if (w.element === undefined) return 'LIST needs an element type: LIST<...>';
      const element = resolveWrittenType(w.element);
      if (typeof element === 'string') return element;
      out.push({ name, element, not_null: w.not_null });
    } else {
      // ANY<INTEGER | STRING> is the union written another way.
      if (w.element !== undefined && name !== 'ANY') return `${spelled} takes no element type`;
      if (w.element !== undefined) {
        const inner = resolveWrittenType(w.element);
        if (typeof inner === 'string') return inner;
        out.push(...inner.map((a) => (w.not_null ? { ...a, not_null: true } : a)));
      } else {
        out.push({ name, not_null: w.not_null || name === 'NOTHING' });
      }
    }
  }
  return out;
}

/** The canonical text of a type, as valueType() prints it. */
export function typeText(t: CypherType): string {
  return t.map(alternativeText).join(' | ');
}

function alternativeText(a: TypeAlternative): string {
  const base = a.name === 'LIST' ? `LIST<${typeText(a.element ?? [])}>` : a.name;
  return a.not_null && a.name !== 'NOTHING' && a.name !== 'NULL' ? `${base} NOT NULL` : base;
}

/** Canonical text parsed back, memoised: a statement asks about the same few types for every row. */
const parsed = new Map<string, CypherType>();
/** Bound on the memo: type texts come from query text, so a long-running server must not keep them all. */
const PARSED_TYPES_MAX = 1024;

export function typeFromText(text: string): CypherType {
  const hit = parsed.get(text);
  if (hit !== undefined) return hit;
  const words = text.match(/<|>|\||[^\s<>|]+/g) ?? [];
  let i = 0;
  const union = (): WrittenAlternative[] => {
    const alts: WrittenAlternative[] = [alternative()];
    while (words[i] === '|') {
      i++;
      alts.push(alternative());
    }
    return alts;
  };
  const alternative = (): WrittenAlternative => {
    const name: string[] = [];
    while (i < words.length && !['<', '>', '|'].includes(words[i] as string) && !(words[i] === 'NOT' && words[i + 1] === 'NULL')) {
      name.push(words[i++] as string);
    }
    let element: WrittenAlternative[] | undefined;
    if (words[i] === '<') {
      i++;
      element = union();
      i++; // '>'
    }
    const not_null = words[i] === 'NOT' && words[i + 1] === 'NULL';
    if (not_null) i += 2;
    return { words: name, ...(element !== undefined && { element }), not_null };
  };
  const t = resolveWrittenType(union());
  if (typeof t === 'string') throw new Error(`type text '${text}' does not parse: ${t}`);
  if (parsed.size >= PARSED_TYPES_MAX) parsed.clear();
  parsed.set(text, t);
  return t;
}

const NAME_OF_KIND: Readonly<Record<Exclude<ValueKind, 'null'>, ValueTypeName>> = {
  boolean: 'BOOLEAN',
  string: 'STRING',
  integer: 'INTEGER',
  float: 'FLOAT',
  date: 'DATE',
  localtime: 'LOCAL TIME',
  time: 'ZONED TIME',
  localdatetime: 'LOCAL DATETIME',
  datetime: 'ZONED DATETIME',
  duration: 'DURATION',
  point: 'POINT',
  vector: 'VECTOR',
  bytes: 'BYTES',
  node: 'NODE',
  relationship: 'RELATIONSHIP',
  map: 'MAP',
  list: 'LIST',
  path: 'PATH',
};

/** Whether `v` is of type `t`: the `IS ::` predicate, which is never null. */
export function isOfType(v: Value, t: CypherType): boolean {
  return t.some((a) => isOfAlternative(v, a));
}

function isOfAlternative(v: Value, a: TypeAlternative): boolean {
  if (v === null) return !a.not_null && a.name !== 'NOTHING';
  switch (a.name) {
    case 'ANY':
      return true;
    case 'NOTHING':
    case 'NULL':
      return false;
    case 'PROPERTY VALUE':
      return isStorableProperty(v);
    case 'LIST':
      return Array.isArray(v) && (v as readonly Value[]).every((e) => isOfType(e, a.element ?? []));
    default:
      return NAME_OF_KIND[kindOf(v) as Exclude<ValueKind, 'null'>] === a.name;
  }
}

/** The most precise type of `v`, as valueType() names it. */
export function valueTypeOf(v: Value): CypherType {
  if (v === null) return [{ name: 'NULL', not_null: false }];
  const name = NAME_OF_KIND[kindOf(v) as Exclude<ValueKind, 'null'>];
  if (name !== 'LIST') return [{ name, not_null: true }];
  return [{ name, element: elementType(v as readonly Value[]), not_null: true }];
}

/** The union of the element types; with a null element every member admits null. */
function elementType(list: readonly Value[]): CypherType {
  if (list.length === 0) return [{ name: 'NOTHING', not_null: true }];
  const hasNull = list.some((e) => e === null);
  const members = new Map<string, TypeAlternative>();
  for (const e of list) {
    if (e === null) continue;
    for (const a of valueTypeOf(e)) {
      const m = hasNull ? { ...a, not_null: false } : a;
      members.set(alternativeText(m), m);
    }
  }
  if (members.size === 0) return [{ name: 'NULL', not_null: false }];
  const rank = (a: TypeAlternative): number => VALUE_TYPE_NAMES.indexOf(a.name as ValueTypeName);
  return [...members.entries()]
    .sort(([ta, a], [tb, b]) => rank(a) - rank(b) || (ta < tb ? -1 : ta > tb ? 1 : 0))
    .map(([, a]) => a);
}
