/**
 * Result values as the shell shows them: Cypher-like text for tables (strings quoted, nodes as
 * `(:Label {k: v})`), bare text for CSV cells, and plain JSON for `--format json` (64-bit integers
 * as numbers when exact, else as decimal strings).
 */
import type { Edge, Node, PropertyValue } from '../../gen/weft/v1/values_pb.js';

export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson };

function quote(s: string): string {
  return `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function propsText(props: { readonly [key: string]: PropertyValue }): string {
  const entries = Object.entries(props).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '' : ` {${entries.map(([k, v]) => `${k}: ${valueText(v)}`).join(', ')}}`;
}

function nodeText(n: Node): string {
  return `(${n.labels.map((l) => `:${l}`).join('')}${propsText(n.properties)})`.replace('( {', '({');
}

function edgeText(e: Edge): string {
  return `[:${e.edgeType}${propsText(e.properties)}]`;
}

function floatText(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return `${x}.0`;
  return String(x);
}

/** Cypher-like text of a value, as a table cell shows it. */
export function valueText(v: PropertyValue | undefined): string {
  const kind = v?.kind;
  if (kind === undefined) return 'null';
  switch (kind.case) {
    case undefined:
    case 'nullValue':
      return 'null';
    case 'stringValue':
      return quote(kind.value);
    case 'intValue':
      return String(kind.value);
    case 'floatValue':
      return floatText(kind.value);
    case 'boolValue':
      return String(kind.value);
    case 'vectorValue':
      return `vector[${kind.value.values.map(String).join(', ')}]`;
    case 'multiVectorValue':
      return `multivector[${kind.value.rows.map((r) => `[${r.values.map(String).join(', ')}]`).join(', ')}]`;
    case 'listValue':
      return `[${kind.value.values.map(valueText).join(', ')}]`;
    case 'bytesValue':
      return `bytes(${Buffer.from(kind.value).toString('hex')})`;
    case 'mapValue': {
      const entries = Object.entries(kind.value.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, x]) => `${k}: ${valueText(x)}`).join(', ')}}`;
    }
    case 'nodeValue':
      return nodeText(kind.value);
    case 'edgeValue':
      return edgeText(kind.value);
    case 'pathValue': {
      const p = kind.value;
      let text = `(${String(p.nodes[0] ?? '')})`;
      p.rels.forEach((r, i) => {
        const forward = r.source === p.nodes[i];
        text += `${forward ? '-' : '<-'}[:${r.edgeType}]${forward ? '->' : '-'}(${String(p.nodes[i + 1] ?? '')})`;
      });
      return text;
    }
    case 'timestampValue':
      return new Date(Number(kind.value.unixMicros / 1000n)).toISOString();
    case 'dateValue':
    case 'localTimeValue':
    case 'timeValue':
    case 'localDatetimeValue':
    case 'datetimeValue':
    case 'durationValue':
      return kind.value.iso;
    case 'pointValue':
      return kind.value.text;
  }
}

/** A CSV cell's text: strings bare, everything else as in a table. */
export function cellText(v: PropertyValue | undefined): string {
  if (v?.kind.case === 'stringValue') return v.kind.value;
  // An empty cell is CSV's null.
  return v === undefined || v.kind.case === undefined || v.kind.case === 'nullValue' ? '' : valueText(v);
}

function int(x: bigint): number | string {
  return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : String(x);
}

function propsJson(props: { readonly [key: string]: PropertyValue }): { [key: string]: PlainJson } {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueJson(v)]));
}

/** A value as plain JSON. */
export function valueJson(v: PropertyValue | undefined): PlainJson {
  const kind = v?.kind;
  if (kind === undefined) return null;
  switch (kind.case) {
    case undefined:
    case 'nullValue':
      return null;
    case 'stringValue':
    case 'boolValue':
      return kind.value;
    case 'intValue':
      return int(kind.value);
    case 'floatValue':
      return Number.isFinite(kind.value) ? kind.value : String(kind.value);
    case 'vectorValue':
      return kind.value.values;
    case 'multiVectorValue':
      return kind.value.rows.map((r) => r.values);
    case 'listValue':
      return kind.value.values.map(valueJson);
    case 'bytesValue':
      return Buffer.from(kind.value).toString('base64');
    case 'mapValue':
      return propsJson(kind.value.fields);
    case 'nodeValue':
      return { elementId: kind.value.elementId, labels: kind.value.labels, properties: propsJson(kind.value.properties) };
    case 'edgeValue':
      return {
        elementId: kind.value.elementId,
        type: kind.value.edgeType,
        source: int(kind.value.sourceNodeId),
        target: int(kind.value.targetNodeId),
        properties: propsJson(kind.value.properties),
      };
    case 'pathValue':
      return { nodes: kind.value.nodes.map(int), rels: kind.value.rels.map((r) => ({ type: r.edgeType, source: int(r.source), target: int(r.target) })) };
    case 'timestampValue':
      return new Date(Number(kind.value.unixMicros / 1000n)).toISOString();
    case 'dateValue':
    case 'localTimeValue':
    case 'timeValue':
    case 'localDatetimeValue':
    case 'datetimeValue':
    case 'durationValue':
      return kind.value.iso;
    case 'pointValue': {
      const p = kind.value;
      const num = (x: number): PlainJson => (Number.isFinite(x) ? x : String(x));
      return { crs: p.crs, srid: p.srid, x: num(p.x), y: num(p.y), ...(p.z !== undefined && { z: num(p.z) }) };
    }
  }
}
