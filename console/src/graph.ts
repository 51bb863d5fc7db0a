/**
 * The result graph drawn as SVG: nodes laid out by a few hundred steps of a spring layout (seeded
 * from their ids, so the same result always draws the same way), coloured by first label, joined
 * by their relationships. Clicking a node, or Enter on a focused one, asks for its neighbours.
 */
import type { WireEdge, WireNode } from './wire.js';

const svg_ns = 'http://www.w3.org/2000/svg';
const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
/** Layout steps per drawing: enough to settle a few hundred nodes. */
export const layout_steps = 300;
export const graph_width = 900;
export const graph_height = 520;

interface Placed {
  readonly node: WireNode;
  x: number;
  y: number;
}

export class GraphView {
  private readonly nodes = new Map<string, Placed>();
  private readonly edges = new Map<string, WireEdge>();

  constructor(
    private readonly root: HTMLElement,
    private readonly expand: (nodeId: string) => void,
  ) {}

  clear(): void {
    this.nodes.clear();
    this.edges.clear();
  }

  /** Adds what a result holds; a node already drawn keeps its place. */
  add(nodes: readonly WireNode[], edges: readonly WireEdge[]): void {
    for (const n of nodes) {
      if (this.nodes.has(n.nodeId)) continue;
      const seed = hash(n.nodeId);
      this.nodes.set(n.nodeId, { node: n, x: graph_width / 2 + ((seed % 200) - 100), y: graph_height / 2 + (((seed >> 8) % 200) - 100) });
    }
    for (const e of edges) if (this.nodes.has(e.sourceNodeId) && this.nodes.has(e.targetNodeId)) this.edges.set(e.edgeId, e);
    this.layout();
    this.draw();
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  private layout(): void {
    const placed = [...this.nodes.values()];
    const k = Math.sqrt((graph_width * graph_height) / Math.max(1, placed.length)) * 0.6;
    for (let step = 0; step < layout_steps; step++) {
      const cooling = 1 - step / layout_steps;
      const force = new Map<Placed, { x: number; y: number }>(placed.map((p) => [p, { x: 0, y: 0 }]));
      for (let i = 0; i < placed.length; i++) {
        for (let j = i + 1; j < placed.length; j++) {
          const a = placed[i]!;
          const b = placed[j]!;
          const dx = a.x - b.x || 0.01;
          const dy = a.y - b.y || 0.01;
          const d2 = dx * dx + dy * dy;
          const push = (k * k) / d2;
          force.get(a)!.x += dx * push;
          force.get(a)!.y += dy * push;
          force.get(b)!.x -= dx * push;
          force.get(b)!.y -= dy * push;
        }
      }
      for (const e of this.edges.values()) {
        const a = this.nodes.get(e.sourceNodeId)!;
        const b = this.nodes.get(e.targetNodeId)!;
        const dx = a.x - b.x;
        const dy = a.y - b.y;
        const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
        const pull = d / k;
        force.get(a)!.x -= dx * pull;
        force.get(a)!.y -= dy * pull;
        force.get(b)!.x += dx * pull;
        force.get(b)!.y += dy * pull;
      }
      for (const p of placed) {
        const f = force.get(p)!;
        const len = Math.sqrt(f.x * f.x + f.y * f.y) || 1;
        const move = Math.min(len, 20 * cooling);
        p.x = clamp(p.x + (f.x / len) * move, 30, graph_width - 30);
        p.y = clamp(p.y + (f.y / len) * move, 30, graph_height - 30);
      }
    }
  }

  private draw(): void {
    const svg = document.createElementNS(svg_ns, 'svg');
    svg.setAttribute('viewBox', `0 0 ${graph_width} ${graph_height}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `graph of ${this.nodes.size} nodes and ${this.edges.size} relationships`);
    for (const e of this.edges.values()) {
      const a = this.nodes.get(e.sourceNodeId)!;
      const b = this.nodes.get(e.targetNodeId)!;
      const line = el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'edge' });
      const label = el('text', { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 4, class: 'edge-label' });
      label.textContent = e.edgeType;
      svg.append(line, label);
    }
    for (const p of this.nodes.values()) {
      const group = el('g', { class: 'node', tabindex: 0, 'data-node-id': p.node.nodeId, role: 'button' });
      const first = p.node.labels?.[0] ?? '';
      const circle = el('circle', { cx: p.x, cy: p.y, r: 18, fill: palette[hash(first) % palette.length]! });
      const caption = el('text', { x: p.x, y: p.y + 32, class: 'node-label' });
      caption.textContent = captionOf(p.node);
      const title = el('title', {});
      title.textContent = `${(p.node.labels ?? []).map((l) => `:${l}`).join('')} id ${p.node.nodeId}; click or Enter for its neighbours`;
      group.append(circle, caption, title);
      group.addEventListener('click', () => this.expand(p.node.nodeId));
      group.addEventListener('keydown', (ev) => {
        if ((ev as KeyboardEvent).key === 'Enter') this.expand(p.node.nodeId);
      });
      svg.append(group);
    }
    this.root.replaceChildren(svg);
  }
}

function captionOf(n: WireNode): string {
  const props = n.properties ?? {};
  const named = props['name'] ?? props['title'];
  const text = named !== undefined ? String(Object.values(named)[0]) : `${n.labels?.[0] ?? ''} ${n.nodeId}`;
  return text.length > 20 ? text.slice(0, 19) + '…' : text;
}

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(svg_ns, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
