import type { Value } from '../../src/common/values/value.js';
import type {
  TckEngine,
  TckGraphState,
  TckNodeDescription,
  TckProcedure,
  TckRelationshipDescription,
  TckResult,
} from './engine.js';

/**
 * A scripted engine for the harness's own tests: each known query text maps to a handler that may
 * change a small in-memory graph and returns rows or throws. Unknown queries fail loudly.
 */
export interface FakeGraph {
  nodes: Map<number, { labels: string[]; properties: Map<string, Value> }>;
  rels: Map<number, { type: string; properties: Map<string, Value>; start: number; end: number }>;
  nextId: number;
}

export type FakeHandler = (graph: FakeGraph, params: ReadonlyMap<string, Value>, engine: FakeEngine) => TckResult;

export class FakeEngine implements TckEngine {
  graph: FakeGraph = { nodes: new Map(), rels: new Map(), nextId: 1 };
  readonly procedures: TckProcedure[] = [];
  readonly executed: string[] = [];
  constructor(private readonly handlers: ReadonlyMap<string, FakeHandler>) {}

  async reset(): Promise<void> {
    this.graph = { nodes: new Map(), rels: new Map(), nextId: 1 };
    this.procedures.length = 0;
  }

  async execute(query: string, params: ReadonlyMap<string, Value>): Promise<TckResult> {
    this.executed.push(query);
    const h = this.handlers.get(query.trim());
    if (h === undefined) throw new Error(`fake engine: no handler for ${JSON.stringify(query)}`);
    return h(this.graph, params, this);
  }

  async graphState(): Promise<TckGraphState> {
    const nodes = new Map<number, TckNodeDescription>();
    for (const [id, n] of this.graph.nodes) nodes.set(id, { labels: [...n.labels], properties: new Map(n.properties) });
    const relationships = new Map<number, { type: string; properties: ReadonlyMap<string, Value> }>();
    for (const [id, r] of this.graph.rels) relationships.set(id, { type: r.type, properties: new Map(r.properties) });
    return { nodes, relationships };
  }

  async describeNode(id: number): Promise<TckNodeDescription> {
    const n = this.graph.nodes.get(id);
    if (n === undefined) throw new Error(`no node ${id}`);
    return n;
  }

  async describeRelationship(id: number): Promise<TckRelationshipDescription> {
    const r = this.graph.rels.get(id);
    if (r === undefined) throw new Error(`no relationship ${id}`);
    return r;
  }

  async registerProcedure(p: TckProcedure): Promise<void> {
    this.procedures.push(p);
  }

  addNode(labels: string[], properties: Record<string, Value> = {}): number {
    const id = this.graph.nextId++;
    this.graph.nodes.set(id, { labels, properties: new Map(Object.entries(properties)) });
    return id;
  }

  addRel(type: string, start: number, end: number, properties: Record<string, Value> = {}): number {
    const id = this.graph.nextId++;
    this.graph.rels.set(id, { type, start, end, properties: new Map(Object.entries(properties)) });
    return id;
  }
}
