import { kindOf, type Value, type ValueMap } from './value.js';

/**
 * A rough size in bytes of a value held in memory by V8, for the per-query memory limit. It is an
 * estimate, not an accounting: it errs on the high side for small values and counts shared values once
 * per reference.
 */
export function estimateValueBytes(v: Value): number {
  switch (kindOf(v)) {
    case 'null':
    case 'boolean':
      return 8;
    case 'float':
      return 16;
    case 'integer':
      return 24;
    case 'string':
      return 16 + 2 * (v as string).length;
    case 'bytes':
      return 64 + (v as Uint8Array).byteLength;
    case 'vector':
      return 64 + (v as Float32Array).byteLength;
    case 'list': {
      let n = 32;
      for (const x of v as readonly Value[]) n += 8 + estimateValueBytes(x);
      return n;
    }
    case 'map': {
      let n = 64;
      for (const [k, x] of v as ValueMap) n += 32 + 2 * k.length + estimateValueBytes(x);
      return n;
    }
    case 'path': {
      const p = v as { nodes: readonly number[]; rels: readonly number[] };
      return 64 + 8 * (p.nodes.length + p.rels.length);
    }
    case 'node':
    case 'relationship':
      return 32;
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
    case 'duration':
    case 'point':
      return 64;
  }
}
