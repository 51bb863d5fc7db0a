import { assertNever } from '../../common/assert.js';
import type { BoundClause, BoundPath, BoundProjection, BoundSetItem } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { mapChildren } from '../bind/bound-walk.js';
import type { StaticType } from '../bind/static-type.js';

/**
 * Where a statement that writes needs an `eager` barrier. openCypher runs each clause over the whole
 * table before the next one starts; streaming rows through several clauses gives the same answers
 * unless a clause reads (or writes) what another clause of the same stretch writes, since then a row
 * would see the writes of the rows after it, or miss those of the rows before it. So the planner
 * streams a stretch of clauses whose footprints do not meet, and puts a barrier before the first
 * clause that meets the stretch, which then starts again. A barrier keeps every row that reaches it,
 * which is what makes `UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b MERGE (m:M {k: b % 1000})
 * SET m.v = a` hold a hundred million rows; streamed, it holds a thousand nodes.
 *
 * A clause's own reads and writes never need one: MERGE sees the nodes its earlier rows created (its
 * read-your-own-writes rule, row by row either way), and a SET reading what it writes runs row by row
 * under a barrier too. The footprints are conservative: whatever the analysis cannot name (a bare
 * node handed to a function, a RETURN of a node, a subquery, a procedure, a DELETE) meets everything,
 * and so does a MATCH. A MERGE's own search runs to its end for each row before the row flows on.
 */

/** Names a footprint touches; 'all' when they cannot be known at planning. */
type Names = ReadonlySet<string> | 'all';

interface Reads {
  /** Labels tested or scanned; 'all' when an unlabeled node is searched for (new nodes of any label meet it). */
  labels: Names;
  /** Relationship types walked; 'all' when a relationship pattern names none. */
  types: Names;
  /** Property keys read from nodes or relationships. */
  keys: Names;
}

interface Writes {
  /** Labels of the nodes created. */
  created_labels: Names;
  /** True when nodes are created (an unlabeled scan meets them whatever their labels). */
  creates_nodes: boolean;
  /** Labels set or removed on existing entities. */
  labels: Names;
  /** Types of the relationships created. */
  types: Names;
  /** Property keys set or removed. */
  keys: Names;
  /** A DELETE meets every read and every write. */
  deletes: boolean;
}

export interface Footprint {
  readonly reads: Reads;
  readonly writes: Writes;
  /**
   * The clause may stop pulling rows before its input ends (a LIMIT): the writes before it must
   * still run over every row, so they finish behind a barrier first.
   */
  stops_early: boolean;
}

const none = (): Set<string> => new Set<string>();

export function emptyFootprint(): Footprint {
  return {
    reads: { labels: none(), types: none(), keys: none() },
    writes: { created_labels: none(), creates_nodes: false, labels: none(), types: none(), keys: none(), deletes: false },
    stops_early: false,
  };
}

function add(into: Names, names: Names): Names {
  if (into === 'all' || names === 'all') return 'all';
  const s = into as Set<string>;
  for (const n of names) s.add(n);
  return s;
}

function meet(a: Names, b: Names): boolean {
  if (a === 'all') return b === 'all' || b.size > 0;
  if (b === 'all') return a.size > 0;
  for (const n of a) if (b.has(n)) return true;
  return false;
}

function readsAnything(r: Reads): boolean {
  return r.labels === 'all' || r.types === 'all' || r.keys === 'all' || r.labels.size + r.types.size + r.keys.size > 0;
}

function writesAnything(w: Writes): boolean {
  return w.deletes || w.creates_nodes || meet(w.labels, 'all') || meet(w.types, 'all') || meet(w.keys, 'all');
}

function readMeetsWrite(r: Reads, w: Writes): boolean {
  if (w.deletes) return readsAnything(r);
  if (w.creates_nodes && r.labels === 'all') return true;
  return meet(r.labels, w.created_labels) || meet(r.labels, w.labels) || meet(r.types, w.types) || meet(r.keys, w.keys);
}

function writeMeetsWrite(a: Writes, b: Writes): boolean {
  // Two clauses setting one key (or label) of one entity leave the later row's value in the one
  // order and the later clause's in the other. Creations commute: each row creates its own entities.
  if ((a.deletes && writesAnything(b)) || (b.deletes && writesAnything(a))) return true;
  return meet(a.keys, b.keys) || meet(a.labels, b.labels);
}

/** True when streaming `next` together with the stretch `stretch` could change an answer. */
export function needsBarrier(stretch: Footprint, next: Footprint): boolean {
  if (next.stops_early && writesAnything(stretch.writes)) return true;
  return readMeetsWrite(stretch.reads, next.writes) || readMeetsWrite(next.reads, stretch.writes) || writeMeetsWrite(stretch.writes, next.writes);
}

/** Adds `f` to the stretch `into`. */
export function widen(into: Footprint, f: Footprint): void {
  into.reads.labels = add(into.reads.labels, f.reads.labels);
  into.reads.types = add(into.reads.types, f.reads.types);
  into.reads.keys = add(into.reads.keys, f.reads.keys);
  const w = into.writes;
  w.created_labels = add(w.created_labels, f.writes.created_labels);
  w.creates_nodes ||= f.writes.creates_nodes;
  w.labels = add(w.labels, f.writes.labels);
  w.types = add(w.types, f.writes.types);
  w.keys = add(w.keys, f.writes.keys);
  w.deletes ||= f.writes.deletes;
  into.stops_early ||= f.stops_early;
}

function readAll(f: Footprint): void {
  f.reads.labels = 'all';
  f.reads.types = 'all';
  f.reads.keys = 'all';
}

function writeAll(f: Footprint): void {
  f.writes.deletes = true;
  f.writes.creates_nodes = true;
  f.writes.created_labels = 'all';
  f.writes.labels = 'all';
  f.writes.types = 'all';
  f.writes.keys = 'all';
}

/** True when a bound clause updates the graph, itself or through a subquery or FOREACH it holds. */
export function clauseWrites(clause: BoundClause): boolean {
  switch (clause.kind) {
    case 'create':
    case 'merge':
    case 'set':
    case 'remove':
    case 'delete':
    case 'foreach':
      return true;
    case 'call_subquery':
      return clause.query.parts.some((p) => p.clauses.some(clauseWrites));
    default:
      return false;
  }
}

/** What a clause reads of the graph and writes to it. */
export function clauseFootprint(clause: BoundClause): Footprint {
  const f = emptyFootprint();
  switch (clause.kind) {
    case 'match':
    case 'call':
      // A scan streams from the store while the rows it produced flow on: a write in the same stretch
      // would change the overlay it is walking (a node set meanwhile is listed again among the
      // changed ones). So a MATCH or a procedure meets every write, whatever it names.
      readAll(f);
      return f;
    case 'unwind':
      expressionReads(clause.expression, f);
      return f;
    case 'load_csv':
      // The file is not the graph: only the URL's expression reads.
      expressionReads(clause.url, f);
      return f;
    case 'create':
      for (const p of clause.pattern) pathCreates(p, f);
      return f;
    case 'merge':
      pathReads(clause.path, f);
      pathCreates(clause.path, f);
      for (const item of [...clause.on_create, ...clause.on_match]) setItem(item, f);
      return f;
    case 'set':
      for (const item of clause.items) setItem(item, f);
      return f;
    case 'remove':
      for (const item of clause.items) {
        if (item.kind === 'remove_property') {
          f.writes.keys = add(f.writes.keys, new Set([item.key]));
          if (item.object.kind !== 'variable') expressionReads(item.object, f);
        } else if (item.kind === 'remove_dynamic_property') {
          // The key is known only per row: it may be any key.
          f.writes.keys = 'all';
          expressionReads(item.object, f);
          expressionReads(item.key, f);
        } else {
          f.writes.labels = item.dynamic === undefined ? add(f.writes.labels, new Set(item.labels)) : 'all';
          item.dynamic?.forEach((d) => expressionReads(d, f));
        }
      }
      return f;
    case 'delete':
      f.writes.deletes = true;
      for (const e of clause.expressions) expressionReads(e, f);
      return f;
    case 'with':
      projectionReads(clause.projection, f, true);
      return f;
    case 'return':
      projectionReads(clause.projection, f, false);
      return f;
    case 'call_subquery':
      // The body runs per row and reads the graph as a MATCH does; whatever it writes is taken to
      // meet everything, so a barrier sits on either side of a subquery that writes.
      readAll(f);
      if (clause.query.parts.some((p) => p.clauses.some(clauseWrites))) writeAll(f);
      return f;
    case 'foreach':
      expressionReads(clause.list, f);
      for (const c of clause.clauses) widen(f, clauseFootprint(c));
      return f;
    case 'finish':
      return f;
    default:
      return assertNever(clause, 'clause');
  }
}

/**
 * A WITH hands a bare variable on without reading it (what later clauses do with it is theirs to
 * count); a RETURN's rows are encoded after the statement ends, so a returned node or relationship
 * reads all of it.
 */
function projectionReads(p: BoundProjection, f: Footprint, passes: boolean): void {
  if (p.limit !== undefined) f.stops_early = true;
  const read = (e: BoundExpression): void => {
    if (!(passes && e.kind === 'variable')) expressionReads(e, f);
  };
  for (const c of p.columns) read(c.expression);
  if (p.aggregation) {
    for (const k of p.aggregation.keys) read(k.expression);
    for (const a of p.aggregation.aggregates) for (const arg of a.call.args) read(arg);
  }
  for (const o of p.order) expressionReads(o.expression, f);
  if (p.where) expressionReads(p.where, f);
}

function setItem(item: BoundSetItem, f: Footprint): void {
  switch (item.kind) {
    case 'set_property':
      f.writes.keys = add(f.writes.keys, new Set([item.key]));
      if (item.object.kind !== 'variable') expressionReads(item.object, f);
      expressionReads(item.value, f);
      return;
    case 'replace_properties':
    case 'merge_properties':
      f.writes.keys = 'all';
      expressionReads(item.value, f);
      return;
    case 'set_labels':
      f.writes.labels = item.dynamic === undefined ? add(f.writes.labels, new Set(item.labels)) : 'all';
      item.dynamic?.forEach((d) => expressionReads(d, f));
      return;
    case 'set_dynamic_property':
      f.writes.keys = 'all';
      expressionReads(item.object, f);
      expressionReads(item.key, f);
      expressionReads(item.value, f);
      return;
    default:
      return assertNever(item, 'set item');
  }
}

/** What searching for a pattern reads: the labels, types and keys it names, and its property expressions. */
function pathReads(p: BoundPath, f: Footprint): void {
  for (const n of p.nodes) {
    if (n.dynamic_labels !== undefined && !n.bound) {
      f.reads.labels = 'all';
      n.dynamic_labels.forEach((d) => expressionReads(d, f));
    } else if (n.labels.length > 0) f.reads.labels = add(f.reads.labels, new Set(n.labels));
    else if (!n.bound) f.reads.labels = 'all';
    if (n.properties) propertyMapReads(n.properties, f);
  }
  for (const r of p.relationships) {
    f.reads.types = r.types.length > 0 ? add(f.reads.types, new Set(r.types)) : 'all';
    if (r.properties) propertyMapReads(r.properties, f);
  }
}

function propertyMapReads(props: BoundExpression, f: Footprint): void {
  if (props.kind === 'map') {
    f.reads.keys = add(f.reads.keys, new Set(props.entries.map((e) => e.key)));
    for (const e of props.entries) expressionReads(e.value, f);
    return;
  }
  f.reads.keys = 'all';
  expressionReads(props, f);
}

/** What creating a pattern's unbound elements writes, and what their property expressions read. */
function pathCreates(p: BoundPath, f: Footprint): void {
  for (const n of p.nodes) {
    if (n.bound) continue;
    f.writes.creates_nodes = true;
    f.writes.created_labels = n.dynamic_labels === undefined ? add(f.writes.created_labels, new Set(n.labels)) : 'all';
    n.dynamic_labels?.forEach((d) => expressionReads(d, f));
    if (n.properties) expressionReads(n.properties, f);
  }
  for (const r of p.relationships) {
    if (r.bound) continue;
    f.writes.types = r.dynamic_type === undefined ? add(f.writes.types, new Set(r.types)) : 'all';
    if (r.dynamic_type) expressionReads(r.dynamic_type, f);
    if (r.properties) expressionReads(r.properties, f);
  }
}

/** True when a value of this type may be (or hold) a node, relationship or path. */
function mayHoldEntity(t: StaticType): boolean {
  if (t.kind === 'list') return mayHoldEntity(t.element);
  const kind = t.kind;
  switch (kind) {
    case 'null':
    case 'boolean':
    case 'integer':
    case 'float':
    case 'number':
    case 'string':
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
    case 'duration':
      return false;
    case 'any':
    case 'map':
    case 'node':
    case 'relationship':
    case 'path':
      return true;
    default:
      return assertNever(kind, 'static type');
  }
}

/**
 * What evaluating an expression reads of the graph. A property of a variable reads that key; a
 * variable that may hold an entity, used any other way (handed to a function, compared as a whole,
 * put in a list), may be read whole, and so may every subquery and pattern.
 */
function expressionReads(e: BoundExpression, f: Footprint): void {
  switch (e.kind) {
    case 'variable':
      if (e.variable.kind !== 'value' || mayHoldEntity(e.variable.type)) readAll(f);
      return;
    case 'property':
      f.reads.keys = add(f.reads.keys, new Set([e.key]));
      if (e.object.kind !== 'variable') expressionReads(e.object, f);
      return;
    case 'has_labels':
      f.reads.labels = add(f.reads.labels, new Set(e.labels));
      if (e.subject.kind !== 'variable') expressionReads(e.subject, f);
      return;
    case 'map_projection':
      for (const item of e.items) {
        if (item.kind === 'property') f.reads.keys = add(f.reads.keys, new Set([item.key]));
        else if (item.kind === 'all_properties') f.reads.keys = 'all';
        else if (item.kind === 'entry') expressionReads(item.value, f);
        else expressionReads({ kind: 'variable', variable: item.variable, type: item.variable.type, span: e.span }, f);
      }
      return;
    case 'pattern_predicate':
    case 'pattern_comprehension':
    case 'exists_subquery':
      readAll(f);
      return;
    default:
      mapChildren(e, (c) => {
        expressionReads(c, f);
        return c;
      });
  }
}
