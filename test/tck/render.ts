import { kindOf, type Value, type ValueMap } from '../../src/common/values/value.js';
import type { TckEngine } from './engine.js';
import type { TckHop, TckNode, TckRel, TckValue } from './expected-value.js';

/**
 * Renders an engine's result value into the TCK's value form: temporal values become their ISO text
 * (the TCK writes them as strings), nodes and relationships are described through the engine, and a
 * path's hops get the direction of each relationship relative to the walk.
 */
export async function renderValue(v: Value, engine: TckEngine): Promise<TckValue> {
  const k = kindOf(v);
  switch (k) {
    case 'null':
      return { k: 'null' };
    case 'boolean':
      return { k: 'bool', v: v as boolean };
    case 'integer':
      return { k: 'int', v: v as bigint };
    case 'float':
      return { k: 'float', v: v as number };
    case 'string':
      return { k: 'string', v: v as string };
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
    case 'duration':
    case 'point':
      return { k: 'string', v: String(v) };
    case 'list': {
      const items: TckValue[] = [];
      for (const x of v as readonly Value[]) items.push(await renderValue(x, engine));
      return { k: 'list', items };
    }
    case 'map':
      return { k: 'map', entries: await renderProps(v as ValueMap, engine) };
    case 'bytes':
      return { k: 'list', items: Array.from(v as Uint8Array, (b) => ({ k: 'int', v: BigInt(b) }) as const) };
    case 'vector':
      return { k: 'list', items: Array.from(v as Float32Array, (f) => ({ k: 'float', v: f }) as const) };
    case 'node':
      return renderNode((v as { id: number }).id, engine);
    case 'relationship':
      return renderRel((v as { id: number }).id, engine);
    case 'path': {
      const p = v as { nodes: readonly number[]; rels: readonly number[] };
      const start = await renderNode(p.nodes[0] as number, engine);
      const hops: TckHop[] = [];
      for (let i = 0; i < p.rels.length; i++) {
        const relId = p.rels[i] as number;
        const d = await engine.describeRelationship(relId);
        const from = p.nodes[i] as number;
        hops.push({
          dir: d.start === from ? '->' : '<-',
          rel: { k: 'rel', type: d.type, props: await renderProps(d.properties, engine) },
          node: await renderNode(p.nodes[i + 1] as number, engine),
        });
      }
      return { k: 'path', start, hops };
    }
  }
}

async function renderProps(m: ValueMap, engine: TckEngine): Promise<Map<string, TckValue>> {
  const out = new Map<string, TckValue>();
  for (const [key, x] of m) out.set(key, await renderValue(x, engine));
  return out;
}

async function renderNode(id: number, engine: TckEngine): Promise<TckNode> {
  const d = await engine.describeNode(id);
  return { k: 'node', labels: [...d.labels], props: await renderProps(d.properties, engine) };
}

async function renderRel(id: number, engine: TckEngine): Promise<TckRel> {
  const d = await engine.describeRelationship(id);
  return { k: 'rel', type: d.type, props: await renderProps(d.properties, engine) };
}
