/**
 * What the shell prints for a result: an aligned table, CSV (RFC 4180 quoting) or one JSON object per
 * row; and an EXPLAIN plan drawn as a tree. Pure functions of their input: they return text.
 */
import type { QueryPlan } from '../../gen/weft/v1/query_pb.js';
import type { PropertyValue } from '../../gen/weft/v1/values_pb.js';
import { cellText, valueJson, valueText } from './format-value.js';

export type OutputFormat = 'table' | 'csv' | 'json';
export const output_formats: readonly OutputFormat[] = ['table', 'csv', 'json'];

export interface ResultSet {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly PropertyValue[])[];
}

/** A cell wider than this is cut with an ellipsis, so one long value does not push a table off screen. */
export const table_cell_chars_max = 80;

function clip(s: string): string {
  const flat = s.replaceAll('\n', '\\n');
  return flat.length > table_cell_chars_max ? flat.slice(0, table_cell_chars_max - 1) + '…' : flat;
}

export function renderTable(r: ResultSet): string {
  if (r.columns.length === 0) return '';
  const cells = r.rows.map((row) => r.columns.map((_, i) => clip(valueText(row[i]))));
  const widths = r.columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (parts: readonly string[]): string => `| ${parts.map((p, i) => p.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  return [rule, line(r.columns), rule, ...cells.map(line), ...(cells.length > 0 ? [rule] : [])].join('\n') + '\n';
}

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function renderCsv(r: ResultSet): string {
  if (r.columns.length === 0) return '';
  const lines = [r.columns.map(csvCell).join(','), ...r.rows.map((row) => r.columns.map((_, i) => csvCell(cellText(row[i]))).join(','))];
  return lines.join('\n') + '\n';
}

export function renderJson(r: ResultSet): string {
  return r.rows.map((row) => JSON.stringify(Object.fromEntries(r.columns.map((c, i) => [c, valueJson(row[i])]))) + '\n').join('');
}

export function renderResult(r: ResultSet, format: OutputFormat): string {
  switch (format) {
    case 'table':
      return renderTable(r);
    case 'csv':
      return renderCsv(r);
    case 'json':
      return renderJson(r);
  }
}

/** Plan details that are about the whole statement, shown once under the tree rather than on a node. */
const statement_details = new Set(['suggestions', 'suggestion_count', 'statement', 'explain', 'cost', 'estimated_time_ms']);

/** The plan as a tree with estimated rows and details, then the index suggestions. */
export function renderPlan(plan: QueryPlan): string {
  const lines: string[] = [];
  const walk = (node: QueryPlan, prefix: string, last: boolean, root: boolean): void => {
    const details = Object.entries(node.details)
      .filter(([k]) => !statement_details.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`);
    const head = root ? '' : `${prefix}${last ? '└─ ' : '├─ '}`;
    lines.push(`${head}${node.operator}  (est. ${formatRows(node.estimatedRows)} rows)${details.length > 0 ? '  ' + details.join(' ') : ''}`);
    const childPrefix = root ? '' : prefix + (last ? '   ' : '│  ');
    node.children.forEach((c, i) => walk(c, childPrefix, i === node.children.length - 1, false));
  };
  walk(plan, '', true, true);
  const suggestions = plan.details['suggestions'] ?? '';
  if (suggestions !== '') lines.push('', 'suggestions:', ...suggestions.split('\n').map((s) => `  ${s}`));
  return lines.join('\n') + '\n';
}

function formatRows(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
