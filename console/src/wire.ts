/**
 * The console's side of the REST API: calls, parameters as proto3 JSON PropertyValues, and result
 * values as the shapes the views draw. Everything goes through the same public REST routes any
 * client uses (docs/api.md).
 */
export interface ApiError {
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
}

export class CallFailed extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code}${error.reason ? ` (${error.reason})` : ''}: ${error.message}`);
  }
}

export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, { method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  const json = (await res.json()) as unknown;
  if (!res.ok) throw new CallFailed(json as ApiError);
  return json as T;
}

/** A value in proto3 JSON: an object with one key naming its variant. */
export type WireValue = { readonly [variant: string]: unknown };

export interface WireNode {
  readonly nodeId: string;
  readonly labels?: readonly string[];
  readonly properties?: { readonly [key: string]: WireValue };
}

export interface WireEdge {
  readonly edgeId: string;
  readonly edgeType: string;
  readonly sourceNodeId: string;
  readonly targetNodeId: string;
  readonly properties?: { readonly [key: string]: WireValue };
}

export interface CypherResult {
  readonly columns?: readonly string[];
  readonly rows?: readonly { readonly values?: readonly WireValue[] }[];
  readonly stats?: { readonly [key: string]: string | boolean };
}

export interface Plan {
  readonly operator: string;
  readonly details?: { readonly [key: string]: string };
  readonly children?: readonly Plan[];
  readonly estimatedRows?: number;
}

/** Plain JSON parameters (what a person types) as PropertyValues: whole numbers are INTEGERs. */
export function paramToWire(v: unknown): WireValue {
  if (v === null) return { nullValue: null };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { floatValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(paramToWire) } };
  if (typeof v === 'object') return { mapValue: { fields: Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, paramToWire(x)])) } };
  throw new Error(`a ${typeof v} cannot be a parameter`);
}

function quote(s: string): string {
  return `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function propsText(props: { readonly [key: string]: WireValue } | undefined): string {
  const entries = Object.entries(props ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length === 0 ? '' : ` {${entries.map(([k, v]) => `${k}: ${valueText(v)}`).join(', ')}}`;
}

/** Cypher-like text of a value, as a table cell shows it. */
export function valueText(v: WireValue | undefined): string {
  if (v === undefined) return 'null';
  const [variant, raw] = Object.entries(v)[0] ?? ['nullValue', null];
  switch (variant) {
    case 'nullValue':
      return 'null';
    case 'stringValue':
      return quote(String(raw));
    case 'intValue':
    case 'boolValue':
      return String(raw);
    case 'floatValue':
      return Number.isInteger(raw) ? `${String(raw)}.0` : String(raw);
    case 'listValue':
      return `[${((raw as { values?: WireValue[] }).values ?? []).map(valueText).join(', ')}]`;
    case 'mapValue':
      return `{${propsText((raw as { fields?: { [key: string]: WireValue } }).fields).slice(2, -1)}}`;
    case 'nodeValue': {
      const n = raw as WireNode;
      return `(${(n.labels ?? []).map((l) => `:${l}`).join('')}${propsText(n.properties)})`;
    }
    case 'edgeValue': {
      const e = raw as WireEdge;
      return `[:${e.edgeType}${propsText(e.properties)}]`;
    }
    case 'pathValue': {
      const p = raw as { nodes?: string[]; rels?: { edgeType: string }[] };
      return `path of ${(p.rels ?? []).length} hops`;
    }
    case 'pointValue':
      // The server sends the point's Cypher text beside its coordinates.
      return (raw as { text?: string } | null)?.text ?? JSON.stringify(raw);
    default: {
      const iso = (raw as { iso?: string } | null)?.iso;
      return iso ?? JSON.stringify(raw);
    }
  }
}

/** The nodes and relationships a result holds, anywhere in its values (lists and maps too). */
export function graphOf(result: CypherResult): { nodes: WireNode[]; edges: WireEdge[] } {
  const nodes: WireNode[] = [];
  const edges: WireEdge[] = [];
  const visit = (v: WireValue | undefined): void => {
    if (v === undefined) return;
    const [variant, raw] = Object.entries(v)[0] ?? [];
    if (variant === 'nodeValue') nodes.push(raw as WireNode);
    else if (variant === 'edgeValue') edges.push(raw as WireEdge);
    else if (variant === 'listValue') for (const x of (raw as { values?: WireValue[] }).values ?? []) visit(x);
    else if (variant === 'mapValue') for (const x of Object.values((raw as { fields?: { [key: string]: WireValue } }).fields ?? {})) visit(x);
  };
  for (const row of result.rows ?? []) for (const v of row.values ?? []) visit(v);
  return { nodes, edges };
}
