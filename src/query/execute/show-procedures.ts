import type { Value } from '../../common/values/value.js';
import type { ConstraintRecord, IndexRecord } from '../../projections/catalog/types.js';
import { typeText } from '../../projections/catalog/value-types.js';
import { show_commands, type ShowKind } from '../ast/show-commands.js';
import { any_type, boolean_type, float_type, integer_type, listOf, map_type, string_type, type StaticType } from '../bind/static-type.js';
import { acceptedArgumentKinds, functionResultType } from '../bind/function-types.js';
import { allFunctionsByCategory } from '../functions/catalog.js';
import type { FunctionDefinition } from '../functions/definition.js';
import { manualName } from '../functions/neo4j-names.js';
import type { Procedure, ProcedureContext } from './procedures.js';

/**
 * The internal procedures behind the SHOW commands (ast/show-commands.ts): each takes the kind
 * filter the parser read before the noun and yields one row per object, with every column of the
 * command in its order. Where Weft has no such value (read counts, roles, descriptions) the column is
 * null; docs/cypher.md lists those differences.
 */

/** The types of the columns by name; a column not listed is ANY. */
const column_types: ReadonlyMap<string, StaticType> = new Map([
  ['id', integer_type],
  ['populationPercent', float_type],
  ['readCount', integer_type],
  ['labelsOrTypes', listOf(string_type)],
  ['properties', listOf(string_type)],
  ['options', map_type],
  ['isBuiltIn', boolean_type],
  ['aggregating', boolean_type],
  ['isDeprecated', boolean_type],
  ['worksOnSystem', boolean_type],
  ['admin', boolean_type],
  ['argumentDescription', listOf(map_type)],
  ['rolesExecution', listOf(string_type)],
  ['rolesBoostedExecution', listOf(string_type)],
  ...['name', 'state', 'type', 'entityType', 'indexProvider', 'owningConstraint', 'ownedIndex', 'propertyType', 'failureMessage', 'createStatement'].map(
    (c) => [c, string_type] as const,
  ),
  ...['category', 'description', 'signature', 'deprecatedBy', 'mode'].map((c) => [c, string_type] as const),
]);

function showProcedure(kind: ShowKind, rows: (filter: string, context: ProcedureContext) => Iterable<ReadonlyMap<string, Value>>): Procedure {
  const { procedure, columns } = show_commands[kind];
  return {
    name: procedure,
    inputs: [{ name: 'filter', type: string_type }],
    outputs: columns.map((name) => ({ name, type: column_types.get(name) ?? any_type })),
    *call(args, context) {
      const filter = typeof args[0] === 'string' ? args[0] : 'ALL';
      for (const row of rows(filter, context)) yield columns.map((c) => row.get(c) ?? null);
    },
  };
}

const index_kinds: Readonly<Record<string, string>> = { btree: 'RANGE', vector: 'VECTOR', text: 'FULLTEXT' };
const index_providers: Readonly<Record<string, string>> = { btree: 'weft-btree-1.0', vector: 'weft-hnsw-1.0', text: 'weft-bm25-1.0' };

function* indexRows(filter: string, context: ProcedureContext): Iterable<ReadonlyMap<string, Value>> {
  const indexes = [...(context.schema?.indexes ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ix of indexes) {
    const kind = ix.search?.kind ?? 'btree';
    const type = index_kinds[kind]!;
    if (filter !== 'ALL' && filter !== type) continue;
    const online = ix.serving !== undefined;
    yield new Map<string, Value>([
      ['id', BigInt(ix.index_id)],
      ['name', ix.name],
      ['state', online ? 'ONLINE' : 'POPULATING'],
      ['populationPercent', online ? 100 : 0],
      ['type', type],
      ['entityType', 'NODE'],
      ['labelsOrTypes', [ix.label]],
      ['properties', [...ix.properties]],
      ['indexProvider', index_providers[kind]!],
      ['owningConstraint', ix.owner ?? null],
      ['options', new Map<string, Value>([['indexProvider', index_providers[kind]!], ['indexConfig', indexConfig(ix)]])],
      ['failureMessage', ''],
      ['createStatement', indexStatement(ix, type)],
    ]);
  }
}

function indexConfig(ix: IndexRecord): Value {
  const s = ix.search;
  if (s === undefined) return new Map();
  if (s.kind === 'text') return new Map<string, Value>([['analyzer', s.analyzer]]);
  return new Map<string, Value>([
    ['vector.dimensions', BigInt(s.dimensions)],
    ['vector.similarity_function', s.metric],
    ['vector.hnsw.m', BigInt(s.m)],
    ['vector.hnsw.ef_construction', BigInt(s.ef_construction)],
  ]);
}

const quoted = (name: string): string => `\`${name.replaceAll('`', '``')}\``;

function indexStatement(ix: IndexRecord, type: string): string {
  const on = ix.properties.map((p) => `n.${quoted(p)}`).join(', ');
  const head = type === 'RANGE' ? (ix.unique ? 'CREATE UNIQUE INDEX' : 'CREATE INDEX') : `CREATE ${type} INDEX`;
  return `${head} ${quoted(ix.name)} FOR (n:${quoted(ix.label)}) ON ${type === 'FULLTEXT' ? `EACH [${on}]` : `(${on})`}`;
}

const constraint_types: Readonly<Record<ConstraintRecord['constraint'], { readonly type: string; readonly filter: string }>> = {
  UNIQUE: { type: 'UNIQUENESS', filter: 'UNIQUE' },
  NODE_KEY: { type: 'NODE_KEY', filter: 'KEY' },
  NOT_NULL: { type: 'NODE_PROPERTY_EXISTENCE', filter: 'EXIST' },
  PROPERTY_TYPE: { type: 'NODE_PROPERTY_TYPE', filter: 'TYPE' },
};

function* constraintRows(filter: string, context: ProcedureContext): Iterable<ReadonlyMap<string, Value>> {
  const constraints = [...(context.schema?.constraints ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index_names = new Map((context.schema?.indexes ?? []).map((ix) => [ix.index_id, ix.name]));
  let id = 0;
  for (const c of constraints) {
    id++;
    const { type, filter: kind } = constraint_types[c.constraint];
    if (filter !== 'ALL' && filter !== kind) continue;
    const owned = c.index_id === undefined ? null : (index_names.get(c.index_id) ?? null);
    yield new Map<string, Value>([
      ['id', BigInt(id)],
      ['name', c.name],
      ['type', type],
      ['entityType', 'NODE'],
      ['labelsOrTypes', [c.label]],
      ['properties', [...c.properties]],
      ['ownedIndex', owned],
      ['propertyType', c.property_type === undefined ? null : typeText(c.property_type)],
      ['options', null],
      ['createStatement', constraintStatement(c)],
    ]);
  }
}

function constraintStatement(c: ConstraintRecord): string {
  const props = c.properties.map((p) => `n.${quoted(p)}`);
  const target = props.length === 1 ? props[0]! : `(${props.join(', ')})`;
  const typed = c.property_type === undefined ? 'ANY' : typeText(c.property_type);
  const requirement = { UNIQUE: 'IS UNIQUE', NODE_KEY: 'IS NODE KEY', NOT_NULL: 'IS NOT NULL', PROPERTY_TYPE: `IS :: ${typed}` }[c.constraint];
  return `CREATE CONSTRAINT ${quoted(c.name)} FOR (n:${quoted(c.label)}) REQUIRE ${target} ${requirement}`;
}

/** A static type as the manual writes types in signatures (`STRING`, `LIST<INTEGER>`, `INTEGER | FLOAT`). */
function typeWord(t: StaticType): string {
  if (t.kind === 'list') return `LIST<${typeWord(t.element)}>`;
  return kind_words[t.kind];
}

const kind_words: Readonly<Record<StaticType['kind'] & string, string>> = {
  any: 'ANY',
  null: 'NULL',
  boolean: 'BOOLEAN',
  integer: 'INTEGER',
  float: 'FLOAT',
  number: 'INTEGER | FLOAT',
  string: 'STRING',
  map: 'MAP',
  node: 'NODE',
  relationship: 'RELATIONSHIP',
  path: 'PATH',
  date: 'DATE',
  localtime: 'LOCAL TIME',
  time: 'ZONED TIME',
  localdatetime: 'LOCAL DATETIME',
  datetime: 'ZONED DATETIME',
  duration: 'DURATION',
  list: 'LIST<ANY>',
};

/**
 * A function's arguments as the binder checks them (bind/function-types.ts): each named `input` when the
 * function takes one, else `arg1`, `arg2`, ...; typed by the kinds it accepts (ANY where the binder leaves
 * the check to run time); those past `min_args` optional.
 */
function functionArguments(f: FunctionDefinition): { name: string; type: string; optional: boolean }[] {
  const count = f.max_args === Infinity ? Math.max(1, f.min_args) : f.max_args;
  return Array.from({ length: count }, (_, i) => {
    const kinds = acceptedArgumentKinds(f.name, i);
    return {
      name: count === 1 ? 'input' : `arg${i + 1}`,
      type: kinds === undefined ? 'ANY' : kinds.map((k) => kind_words[k]).join(' | '),
      optional: i >= f.min_args,
    };
  });
}

function* functionRows(filter: string): Iterable<ReadonlyMap<string, Value>> {
  if (filter === 'USER DEFINED') return;
  const rows = allFunctionsByCategory()
    .flatMap(({ category, functions }) => functions.map((f) => ({ category, f, name: manualName(f.name) })))
    .filter(({ f }) => !f.name.includes(' ') && !/^[^a-z]/.test(f.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { category, f, name } of rows) {
    const args = functionArguments(f);
    const result = functionResultType(f.name, []);
    // coalesce of no known argument is typed null: it returns whatever its arguments hold.
    const returns = typeWord(result.kind === 'null' ? any_type : result);
    const written = args.map((a) => (a.optional ? `[${a.name} :: ${a.type}]` : `${a.name} :: ${a.type}`));
    if (f.max_args === Infinity) written.push('...');
    yield new Map<string, Value>([
      ['name', name],
      ['category', category],
      ['description', null],
      ['signature', `${name}(${written.join(', ')}) :: ${returns}`],
      ['isBuiltIn', true],
      [
        'argumentDescription',
        args.map(
          (a) =>
            new Map<string, Value>([
              ['name', a.name],
              ['description', null],
              ['type', a.type],
              ['isDeprecated', false],
              ['optional', a.optional],
            ]),
        ),
      ],
      ['returnDescription', returns],
      ['aggregating', f.kind === 'aggregate'],
      ['rolesExecution', null],
      ['rolesBoostedExecution', null],
      ['isDeprecated', false],
      ['deprecatedBy', null],
    ]);
  }
}

export const show_procedures: readonly Procedure[] = [
  showProcedure('indexes', indexRows),
  showProcedure('constraints', constraintRows),
  showProcedure('functions', (filter) => functionRows(filter)),
];

/** A procedure's input or output as the manual describes it: name, type, description (Weft has none). */
function fieldDescription(name: string, type: StaticType): Value {
  return new Map<string, Value>([
    ['name', name],
    ['type', typeWord(type)],
    ['description', null],
    ['isDeprecated', false],
  ]);
}

/** SHOW PROCEDURES over the built-in procedures `listed` (the schema procedures; SHOW's own are internal). */
export function showProceduresProcedure(listed: () => readonly Procedure[]): Procedure {
  return showProcedure('procedures', () =>
    [...listed()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(
        (p) =>
          new Map<string, Value>([
            ['name', p.name],
            ['description', null],
            ['mode', 'READ'],
            ['worksOnSystem', false],
            ['signature', `${p.name}(${p.inputs.map((i) => `${i.name} :: ${typeWord(i.type)}`).join(', ')}) :: (${p.outputs.map((o) => `${o.name} :: ${typeWord(o.type)}`).join(', ')})`],
            ['argumentDescription', p.inputs.map((i) => fieldDescription(i.name, i.type))],
            ['returnDescription', p.outputs.map((o) => fieldDescription(o.name, o.type))],
            ['admin', false],
            ['rolesExecution', null],
            ['rolesBoostedExecution', null],
            ['isDeprecated', false],
            ['deprecatedBy', null],
            ['option', new Map<string, Value>([['deprecated', false]])],
          ]),
      ),
  );
}
