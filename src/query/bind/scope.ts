import { isGeneratedName } from '../ast/pattern.js';
import type { BoundVariable, VariableKind } from './bound-expression.js';
import type { StaticType } from './static-type.js';
import { elementOf } from './static-type.js';

/**
 * The variables visible at one point of a query. Clause scopes are flat (a WITH replaces the scope);
 * comprehensions, pattern comprehensions and subqueries open a child scope over their parent.
 */
export class Scope {
  private readonly own = new Map<string, BoundVariable>();

  constructor(readonly parent?: Scope) {}

  lookup(name: string): BoundVariable | undefined {
    return this.own.get(name) ?? this.parent?.lookup(name);
  }

  /** Declared in this scope itself (not a parent). */
  hasOwn(name: string): boolean {
    return this.own.has(name);
  }

  declare(v: BoundVariable): void {
    if (v.visible) this.own.set(v.name, v);
  }

  /** The user-visible variables, parents' first, each name once (inner shadows outer), sorted by name. */
  visible(): BoundVariable[] {
    const all = new Map<string, BoundVariable>();
    const chain: Scope[] = [];
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent) chain.unshift(s);
    for (const s of chain) for (const [name, v] of s.own) if (!isGeneratedName(name)) all.set(name, v);
    return [...all.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A flat copy of everything visible here, for a subquery that starts from this scope. */
  flatten(): Scope {
    const s = new Scope();
    for (const v of this.visible()) s.declare(v);
    return s;
  }
}

/**
 * The names under which LOAD CSV declares the slots of its row's line number and file: names no query
 * can write, so `linenumber()` and `file()` find the nearest LOAD CSV in scope and `RETURN *` leaves them out.
 */
export const csv_line_name = ' csv linenumber';
export const csv_file_name = ' csv file';

/** Allocates the statement's slots. Invariant: all[i].id === i. */
export class VariableTable {
  readonly all: BoundVariable[] = [];

  make(name: string, kind: VariableKind, type: StaticType, visible = true): BoundVariable {
    const v: BoundVariable = { id: this.all.length, name, kind, type, visible };
    this.all.push(v);
    return v;
  }

  /** A slot the user cannot name: an unnamed pattern element or an aggregate's result. */
  hidden(what: string, kind: VariableKind, type: StaticType): BoundVariable {
    return this.make(`  ${what}${this.all.length}`, kind, type, false);
  }
}

/** The kind of a value of a type: graph elements keep theirs, a list of relationships is 'relationships'. */
export function kindOfType(t: StaticType): VariableKind {
  switch (t.kind) {
    case 'node':
      return 'node';
    case 'relationship':
      return 'relationship';
    case 'path':
      return 'path';
    case 'list':
      return elementOf(t).kind === 'relationship' ? 'relationships' : 'value';
    default:
      return 'value';
  }
}
