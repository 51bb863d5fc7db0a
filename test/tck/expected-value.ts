import type { Value } from '../../src/common/values/value.js';

/**
 * The value syntax of TCK table cells (STEPS.md section 4) and its parsed form. Actual results are
 * rendered into the same form (render.ts) so that one comparison serves both.
 */
export type TckValue =
  | { readonly k: 'null' }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'float'; readonly v: number }
  | { readonly k: 'string'; readonly v: string }
  | { readonly k: 'list'; readonly items: readonly TckValue[] }
  | { readonly k: 'map'; readonly entries: ReadonlyMap<string, TckValue> }
  | { readonly k: 'node'; readonly labels: readonly string[]; readonly props: ReadonlyMap<string, TckValue> }
  | { readonly k: 'rel'; readonly type: string; readonly props: ReadonlyMap<string, TckValue> }
  | { readonly k: 'path'; readonly start: TckNode; readonly hops: readonly TckHop[] };

export type TckNode = Extract<TckValue, { k: 'node' }>;
export type TckRel = Extract<TckValue, { k: 'rel' }>;
export interface TckHop {
  /** `->` when the relationship points along the walk, `<-` when against it. */
  readonly dir: '->' | '<-';
  readonly rel: TckRel;
  readonly node: TckNode;
}

export class TckSyntaxError extends Error {
  override readonly name = 'TckSyntaxError';
}

/** Parses one cell (already unescaped by Gherkin). Throws TckSyntaxError on anything malformed. */
export function parseTckValue(text: string): TckValue {
  const p = new CellParser(text);
  const v = p.value();
  p.skip();
  if (!p.done()) p.fail('trailing text');
  return v;
}

const NUMBER_RE = /^-?(?:\d+(?:\.\d+)?(?:[eE]-?\d+)?|\.\d+(?:[eE]-?\d+)?)/;
const NAME_RE = /^[A-Za-z0-9_$]+/;

class CellParser {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  fail(what: string): never {
    throw new TckSyntaxError(`cannot parse TCK value ${JSON.stringify(this.s)} at ${this.i}: ${what}`);
  }

  skip(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] as string)) this.i++;
  }

  private peek(n = 0): string {
    return this.s[this.i + n] ?? '';
  }

  private startsWith(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }

  private expect(t: string): void {
    this.skip();
    if (!this.startsWith(t)) this.fail(`expected '${t}'`);
    this.i += t.length;
  }

  private word(): string | undefined {
    const m = NAME_RE.exec(this.s.slice(this.i));
    if (m === null) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  private name(): string {
    this.skip();
    if (this.peek() === '`') {
      const end = this.s.indexOf('`', this.i + 1);
      if (end < 0) this.fail('unterminated backquote');
      const n = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return n;
    }
    return this.word() ?? this.fail('expected a name');
  }

  value(): TckValue {
    this.skip();
    const c = this.peek();
    if (c === "'") return { k: 'string', v: this.string() };
    if (c === '[') return this.peek(1) === ':' || this.nextNonSpace(1) === ':' ? this.rel() : this.list();
    if (c === '{') return { k: 'map', entries: this.props() };
    if (c === '(') return this.node();
    if (c === '<') return this.path();
    for (const [word, v] of KEYWORDS) {
      if (this.startsWith(word) && !/[A-Za-z0-9_]/.test(this.s[this.i + word.length] ?? '')) {
        this.i += word.length;
        return v;
      }
    }
    const m = NUMBER_RE.exec(this.s.slice(this.i));
    if (m === null) this.fail('expected a value');
    this.i += m[0].length;
    const t = m[0];
    return /[.eE]/.test(t) ? { k: 'float', v: Number(t) } : { k: 'int', v: BigInt(t) };
  }

  private nextNonSpace(from: number): string {
    let j = this.i + from;
    while (j < this.s.length && /\s/.test(this.s[j] as string)) j++;
    return this.s[j] ?? '';
  }

  private string(): string {
    this.i++; // opening quote
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === '\\' && (this.peek(1) === "'" || this.peek(1) === '\\')) {
        out += this.peek(1);
        this.i += 2;
        continue;
      }
      if (c === "'") {
        this.i++;
        return out;
      }
      out += c;
      this.i++;
    }
    return this.fail('unterminated string');
  }

  private list(): TckValue {
    this.expect('[');
    const items: TckValue[] = [];
    this.skip();
    if (this.peek() === ']') {
      this.i++;
      return { k: 'list', items };
    }
    for (;;) {
      items.push(this.value());
      this.skip();
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      this.expect(']');
      return { k: 'list', items };
    }
  }

  private props(): Map<string, TckValue> {
    this.expect('{');
    const entries = new Map<string, TckValue>();
    this.skip();
    if (this.peek() === '}') {
      this.i++;
      return entries;
    }
    for (;;) {
      const key = this.name();
      this.expect(':');
      if (entries.has(key)) this.fail(`duplicate key ${key}`);
      entries.set(key, this.value());
      this.skip();
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      this.expect('}');
      return entries;
    }
  }

  private node(): TckNode {
    this.expect('(');
    const labels: string[] = [];
    this.skip();
    while (this.peek() === ':') {
      this.i++;
      labels.push(this.name());
      this.skip();
    }
    const props = this.peek() === '{' ? this.props() : new Map<string, TckValue>();
    this.expect(')');
    return { k: 'node', labels, props };
  }

  private rel(): TckRel {
    this.expect('[');
    this.expect(':');
    const type = this.name();
    this.skip();
    const props = this.peek() === '{' ? this.props() : new Map<string, TckValue>();
    this.expect(']');
    return { k: 'rel', type, props };
  }

  private path(): TckValue {
    this.expect('<');
    const start = this.node();
    const hops: TckHop[] = [];
    for (;;) {
      this.skip();
      if (this.peek() === '>') {
        this.i++;
        return { k: 'path', start, hops };
      }
      if (this.startsWith('<-')) {
        this.i += 2;
        const rel = this.rel();
        this.expect('-');
        hops.push({ dir: '<-', rel, node: this.node() });
      } else if (this.peek() === '-') {
        this.i++;
        const rel = this.rel();
        this.expect('->');
        hops.push({ dir: '->', rel, node: this.node() });
      } else {
        this.fail("expected '-', '<-' or '>' in a path");
      }
    }
  }
}

const KEYWORDS: readonly (readonly [string, TckValue])[] = [
  ['null', { k: 'null' }],
  ['true', { k: 'bool', v: true }],
  ['false', { k: 'bool', v: false }],
  ['NaN', { k: 'float', v: NaN }],
  ['-Inf', { k: 'float', v: -Infinity }],
  ['Inf', { k: 'float', v: Infinity }],
];

/** A parsed cell as a runtime value, for parameters and procedure tables. Graph elements cannot be. */
export function tckToValue(v: TckValue): Value {
  switch (v.k) {
    case 'null':
      return null;
    case 'bool':
    case 'int':
    case 'float':
    case 'string':
      return v.v;
    case 'list':
      return v.items.map(tckToValue);
    case 'map':
      return new Map([...v.entries].map(([key, x]) => [key, tckToValue(x)] as const));
    case 'node':
    case 'rel':
    case 'path':
      throw new TckSyntaxError(`a ${v.k} cannot be a parameter value`);
  }
}

/** Canonical text of a TCK value, for messages and reports. */
export function showTckValue(v: TckValue): string {
  switch (v.k) {
    case 'null':
      return 'null';
    case 'bool':
      return String(v.v);
    case 'int':
      return v.v.toString();
    case 'float': {
      if (Number.isNaN(v.v)) return 'NaN';
      const s = String(v.v);
      return /[.eEIN]/.test(s) ? s : `${s}.0`;
    }
    case 'string':
      return `'${v.v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    case 'list':
      return `[${v.items.map(showTckValue).join(', ')}]`;
    case 'map':
      return showProps(v.entries) || '{}';
    case 'node':
      return `(${v.labels.map((l) => `:${l}`).join('')}${v.labels.length > 0 && v.props.size > 0 ? ' ' : ''}${showProps(v.props)})`;
    case 'rel':
      return `[:${v.type}${v.props.size > 0 ? ' ' : ''}${showProps(v.props)}]`;
    case 'path':
      return `<${showTckValue(v.start)}${v.hops
        .map((h) => (h.dir === '->' ? `-${showTckValue(h.rel)}->` : `<-${showTckValue(h.rel)}-`) + showTckValue(h.node))
        .join('')}>`;
  }
}

function showProps(m: ReadonlyMap<string, TckValue>): string {
  if (m.size === 0) return '';
  return `{${[...m].map(([k, x]) => `${k}: ${showTckValue(x)}`).join(', ')}}`;
}
