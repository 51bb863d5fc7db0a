import type { TckProcedureParameter } from './engine.js';

/**
 * Parses the signature of `there exists a procedure <sig>:`, e.g.
 * `test.my.proc(in :: INTEGER?, in2 :: STRING?) :: (out :: STRING?)`; `() :: ()` declares nothing.
 * A trailing ` :` (one file writes the colon after a space) is tolerated.
 */
export interface ProcedureSignature {
  readonly name: string;
  readonly inputs: readonly TckProcedureParameter[];
  readonly outputs: readonly TckProcedureParameter[];
}

const SIGNATURE_RE = /^([A-Za-z_][\w.]*)\s*\(([^)]*)\)\s*::\s*\(([^)]*)\)\s*:?\s*$/;

export function parseProcedureSignature(text: string): ProcedureSignature {
  const m = SIGNATURE_RE.exec(text.trim());
  if (m === null) throw new Error(`cannot parse procedure signature: ${text}`);
  return { name: m[1] as string, inputs: params(m[2] as string), outputs: params(m[3] as string) };
}

function params(list: string): TckProcedureParameter[] {
  if (list.trim() === '') return [];
  return list.split(',').map((p) => {
    const m = /^\s*([A-Za-z_]\w*)\s*::\s*([A-Z?]+(?:\s*\?)?)\s*$/.exec(p);
    if (m === null) throw new Error(`cannot parse procedure parameter: ${p}`);
    return { name: m[1] as string, type: (m[2] as string).replace(/\s+/g, '') };
  });
}
