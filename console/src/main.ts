/**
 * The Weft console: a Cypher editor with highlighting, history and parameters; results as a table and
 * as a graph; EXPLAIN drawn as a tree; the schema. Keyboard: Ctrl+Enter runs, Ctrl+Shift+Enter
 * explains, Alt+Up/Down walk the history, Alt+1/2/3 show the table, graph and plan, Alt+R reads the
 * cluster status again. docs/console.md.
 */
import { ClusterPanel } from './cluster.js';
import { GraphView } from './graph.js';
import { highlight } from './highlight.js';
import { CallFailed, call, graphOf, paramToWire, valueText, type CypherResult, type Plan, type WireValue } from './wire.js';

/** Statements kept in the history (browser storage). */
export const history_entries_max = 200;
const history_key = 'weft.console.history';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const editor = $<HTMLTextAreaElement>('editor');
const shadow = $<HTMLPreElement>('editor-highlight');
const params = $<HTMLTextAreaElement>('params');
const status = $<HTMLDivElement>('status');
const tableView = $<HTMLDivElement>('view-table');
const planView = $<HTMLDivElement>('view-plan');
const historyList = $<HTMLOListElement>('history');
const views = ['table', 'graph', 'plan'] as const;
type View = (typeof views)[number];

const cluster = new ClusterPanel($('cluster'), $('cluster-state'));
const graph = new GraphView($('view-graph'), (id) => void expand(id));
let history: string[] = JSON.parse(localStorage.getItem(history_key) ?? '[]') as string[];
let historyAt = -1;

function paint(): void {
  shadow.replaceChildren(
    ...highlight(editor.value + '\n').map((r) => {
      const span = document.createElement('span');
      span.className = `hl-${r.kind}`;
      span.textContent = r.text;
      return span;
    }),
  );
  shadow.scrollTop = editor.scrollTop;
}

function show(view: View): void {
  for (const v of views) {
    $(`tab-${v}`).setAttribute('aria-selected', String(v === view));
    $(`view-${v}`).hidden = v !== view;
  }
}

function setStatus(text: string, failed = false): void {
  status.textContent = text;
  status.classList.toggle('failed', failed);
}

function parameters(): Record<string, WireValue> {
  const text = params.value.trim();
  if (text === '') return {};
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('parameters must be a JSON object');
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, paramToWire(v)]));
}

function remember(query: string): void {
  history = [query, ...history.filter((q) => q !== query)].slice(0, history_entries_max);
  localStorage.setItem(history_key, JSON.stringify(history));
  historyAt = -1;
  drawHistory();
}

function drawHistory(): void {
  historyList.replaceChildren(
    ...history.slice(0, 20).map((q) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.textContent = q;
      button.addEventListener('click', () => {
        editor.value = q;
        paint();
        editor.focus();
      });
      li.append(button);
      return li;
    }),
  );
}

function drawTable(result: CypherResult): void {
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const c of result.columns ?? []) head.append(Object.assign(document.createElement('th'), { textContent: c, scope: 'col' }));
  const body = table.createTBody();
  for (const row of result.rows ?? []) {
    const tr = body.insertRow();
    for (const v of row.values ?? []) tr.insertCell().textContent = valueText(v);
  }
  tableView.replaceChildren(table);
}

function drawPlan(plan: Plan): void {
  const tree = (p: Plan): HTMLLIElement => {
    const li = document.createElement('li');
    const details = Object.entries(p.details ?? {})
      .filter(([k]) => !['suggestions', 'suggestion_count', 'statement', 'explain', 'cost', 'estimated_time_ms'].includes(k))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    li.append(Object.assign(document.createElement('strong'), { textContent: p.operator }), ` est. ${p.estimatedRows ?? 0} rows `, Object.assign(document.createElement('code'), { textContent: details }));
    if ((p.children ?? []).length > 0) {
      const ul = document.createElement('ul');
      ul.append(...(p.children ?? []).map(tree));
      li.append(ul);
    }
    return li;
  };
  const root = document.createElement('ul');
  root.className = 'plan';
  root.append(tree(plan));
  const suggestions = (plan.details?.['suggestions'] ?? '').split('\n').filter((s) => s !== '');
  const list = document.createElement('ul');
  list.className = 'suggestions';
  list.append(...suggestions.map((s) => Object.assign(document.createElement('li'), { textContent: s })));
  planView.replaceChildren(root, ...(suggestions.length > 0 ? [Object.assign(document.createElement('h3'), { textContent: 'Suggestions' }), list] : []));
}

async function run(): Promise<void> {
  const query = editor.value.trim();
  if (query === '') return;
  remember(query);
  setStatus('running…');
  const started = performance.now();
  try {
    const result = await call<CypherResult>('POST', '/v1/query/cypher', { query, parameters: parameters() });
    const ms = (performance.now() - started).toFixed(1);
    drawTable(result);
    const g = graphOf(result);
    graph.clear();
    graph.add(g.nodes, g.edges);
    const rows = result.rows?.length ?? 0;
    setStatus(`${rows} row${rows === 1 ? '' : 's'} in ${ms} ms`);
    void loadSchema();
  } catch (e) {
    setStatus(e instanceof Error ? e.message : String(e), true);
  }
}

async function explain(): Promise<void> {
  const query = editor.value.trim();
  if (query === '') return;
  remember(query);
  try {
    const res = await call<{ plan: Plan }>('POST', '/v1/query/cypher/explain', { query, parameters: parameters() });
    drawPlan(res.plan);
    setStatus('plan');
    show('plan');
  } catch (e) {
    setStatus(e instanceof Error ? e.message : String(e), true);
  }
}

async function expand(nodeId: string): Promise<void> {
  try {
    const result = await call<CypherResult>('POST', '/v1/query/cypher', {
      query: 'MATCH (n)-[r]-(m) WHERE id(n) = $id RETURN n, r, m LIMIT 100',
      parameters: { id: { intValue: nodeId } },
    });
    const g = graphOf(result);
    graph.add(g.nodes, g.edges);
    setStatus(`expanded node ${nodeId}: ${graph.nodeCount} nodes drawn`);
  } catch (e) {
    setStatus(e instanceof CallFailed ? e.message : String(e), true);
  }
}

/** An IndexBuild as the REST API gives it (proto3 JSON: uint64 as decimal strings, enums by name). */
interface IndexBuildJson {
  operation?: string;
  index?: string;
  label?: string;
  state?: string;
  phase?: string;
  indexed?: string;
  failure?: string;
}

/** An enum value without its type's prefix: `INDEX_BUILD_STATE_RUNNING` reads `RUNNING`. */
function enumName(value: string | undefined, prefix: string): string {
  return (value ?? '').replace(prefix, '');
}

/**
 * One build: its index and label, its state and, while it runs, its phase; then its progress, the
 * nodes indexed so far; a failed build's reason. A withdrawn index has no name left, only its operation.
 */
function buildLine(b: IndexBuildJson): string {
  const what = b.index !== undefined && b.index !== '' ? `${b.index} on :${b.label ?? ''}` : `operation ${b.operation ?? '?'} (withdrawn)`;
  const state = enumName(b.state, 'INDEX_BUILD_STATE_');
  const phase = enumName(b.phase, 'INDEX_BUILD_PHASE_');
  const running = state === 'RUNNING' && phase !== '' && phase !== 'UNSPECIFIED' ? ` (${phase.toLowerCase().replaceAll('_', ' ')})` : '';
  const failure = b.failure !== undefined && b.failure !== '' ? `: ${b.failure}` : '';
  const indexed = b.indexed ?? '0';
  return `${what}: ${state}${running}, ${indexed} ${indexed === '1' ? 'node' : 'nodes'} indexed${failure}`;
}

async function loadSchema(): Promise<void> {
  const section = (title: string, items: string[]): HTMLElement => {
    const s = document.createElement('section');
    s.append(Object.assign(document.createElement('h3'), { textContent: title }));
    const ul = document.createElement('ul');
    ul.append(...(items.length > 0 ? items : ['none']).map((t) => Object.assign(document.createElement('li'), { textContent: t })));
    s.append(ul);
    return s;
  };
  try {
    const [labels, types, constraints, builds] = await Promise.all([
      call<{ labels?: { name: string; declared?: boolean }[] }>('GET', '/v2/graph/schema/labels'),
      call<{ edgeTypes?: { name: string }[] }>('GET', '/v2/graph/schema/edge-types'),
      call<{ constraints?: { name: string; kind?: string; label?: string; properties?: string[]; state?: string }[] }>('GET', '/v2/graph/schema/constraints'),
      call<{ builds?: IndexBuildJson[] }>('GET', '/v2/graph/schema/index-builds'),
    ]);
    $('schema').replaceChildren(
      section('Labels', (labels.labels ?? []).map((l) => l.name + (l.declared === true ? ' (declared)' : ''))),
      section('Relationship types', (types.edgeTypes ?? []).map((t) => t.name)),
      section(
        'Constraints',
        (constraints.constraints ?? []).map((c) => `${c.name}: ${enumName(c.kind, 'CONSTRAINT_KIND_')} :${c.label ?? ''}(${(c.properties ?? []).join(', ')}) ${enumName(c.state, 'CONSTRAINT_STATE_')}`),
      ),
      section('Index builds', (builds.builds ?? []).map(buildLine)),
    );
  } catch (e) {
    $('schema').textContent = `schema unavailable: ${e instanceof Error ? e.message : String(e)}`;
  }
}

editor.addEventListener('input', paint);
editor.addEventListener('scroll', () => (shadow.scrollTop = editor.scrollTop));
editor.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
    ev.preventDefault();
    void (ev.shiftKey ? explain() : run());
  } else if (ev.altKey && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown')) {
    ev.preventDefault();
    historyAt = Math.max(-1, Math.min(history.length - 1, historyAt + (ev.key === 'ArrowUp' ? 1 : -1)));
    editor.value = historyAt >= 0 ? (history[historyAt] ?? '') : '';
    paint();
  }
});
document.addEventListener('keydown', (ev) => {
  const n = ['1', '2', '3'].indexOf(ev.key);
  if (ev.altKey && n >= 0) {
    ev.preventDefault();
    show(views[n]!);
  } else if (ev.altKey && (ev.key === 'r' || ev.key === 'R')) {
    ev.preventDefault();
    void cluster.refresh();
  }
});
for (const v of views) $(`tab-${v}`).addEventListener('click', () => show(v));
$('run').addEventListener('click', () => void run());
$('explain').addEventListener('click', () => void explain());
$('refresh-schema').addEventListener('click', () => void loadSchema());
$('refresh-cluster').addEventListener('click', () => void cluster.refresh());
paint();
drawHistory();
show('table');
void loadSchema();
cluster.start();
editor.focus();
