import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PickleStep } from '@cucumber/messages';
import type { Value } from '../../src/common/values/value.js';
import { CypherError } from '../../src/query/errors.js';
import { compareTables, type ExpectedTable, type RowOrder } from './compare.js';
import type { TckEngine, TckGraphState, TckResult } from './engine.js';
import { parseTckValue, tckToValue, type TckValue } from './expected-value.js';
import type { TckCase } from './features.js';
import { parseProcedureSignature } from './procedure.js';
import { renderValue } from './render.js';
import { SIDE_EFFECT_KEYS, sideEffects, type SideEffectKey, type SideEffects } from './side-effects.js';

/**
 * Runs one TCK case against an engine, following STEPS.md: a fresh graph, the setup steps, the graph
 * state recorded just before the query under test, then the Then/And checks in order. One outcome per
 * pass level: strict (error type, phase and detail), type (error type only), lenient (any error).
 */
export type Level = 'strict' | 'type' | 'lenient';
export const LEVELS: readonly Level[] = ['strict', 'type', 'lenient'];
export type Outcome = 'pass' | 'fail' | 'harness-error';

export interface CaseResult {
  readonly id: string;
  readonly outcomes: Readonly<Record<Level, Outcome>>;
  /** Why the case did not pass (at the strictest level that failed), or the harness problem. */
  readonly message?: string;
}

export interface RunnerOptions {
  /** Directory holding `<name>/<name>.cypher` (or `<name>.cypher`) for `Given the <name> graph`. */
  readonly graphsDir: string;
  /** Bound on one case in milliseconds; CASE_TIMEOUT_MS_DEFAULT when absent. */
  readonly caseTimeoutMs?: number;
}

class HarnessError extends Error {
  override readonly name = 'HarnessError';
}

type Executed =
  | { readonly kind: 'rows'; readonly columns: readonly string[]; readonly rows: readonly (readonly TckValue[])[] }
  | { readonly kind: 'error'; readonly error: CypherError }
  | { readonly kind: 'crash'; readonly error: unknown };

const ERROR_STEP_RE = /^an? (.+) should be raised at (.+): (.+)$/;
const RESULT_STEPS: ReadonlyMap<string, { order: RowOrder; unorderedLists: boolean }> = new Map([
  ['the result should be, in any order:', { order: 'any', unorderedLists: false }],
  ['the result should be, in order:', { order: 'ordered', unorderedLists: false }],
  ['the result should be (ignoring element order for lists):', { order: 'any', unorderedLists: true }],
  ['the result should be, in order (ignoring element order for lists):', { order: 'ordered', unorderedLists: true }],
]);

/** Default bound on one case, setup included; a case that takes longer fails at every level. */
export const CASE_TIMEOUT_MS_DEFAULT = 30_000;

export async function runCase(c: TckCase, engine: TckEngine, options: RunnerOptions): Promise<CaseResult> {
  const run = new CaseRun(engine, options);
  const timeoutMs = options.caseTimeoutMs ?? CASE_TIMEOUT_MS_DEFAULT;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const steps = (async (): Promise<'done'> => {
    await engine.reset();
    for (let i = 0; i < c.steps.length; i++) await run.step(c.steps[i] as PickleStep, c.steps[i + 1]);
    run.finish();
    return 'done';
  })();
  try {
    if ((await Promise.race([steps, timedOut])) === 'timeout') {
      // The engine may still be busy; the next case's reset is its chance to recover.
      steps.catch(() => undefined);
      return { id: c.id, outcomes: { strict: 'fail', type: 'fail', lenient: 'fail' }, message: `timed out after ${timeoutMs} ms` };
    }
  } catch (e) {
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { id: c.id, outcomes: { strict: 'harness-error', type: 'harness-error', lenient: 'harness-error' }, message };
  } finally {
    clearTimeout(timer);
  }
  return run.result(c.id);
}

class CaseRun {
  private params = new Map<string, Value>();
  private before: TckGraphState | undefined;
  private executed: Executed | undefined;
  private queryRan = false;
  private sideEffectsChecked = false;
  /** Failures that fail every level. */
  private readonly failures: string[] = [];
  /** Failures of the error step, per level. */
  private readonly levelFailures: Record<Level, string[]> = { strict: [], type: [], lenient: [] };

  constructor(
    private readonly engine: TckEngine,
    private readonly options: RunnerOptions,
  ) {}

  async step(s: PickleStep, next: PickleStep | undefined): Promise<void> {
    const text = s.text.trim();
    const doc = s.argument?.docString?.content;
    const table = s.argument?.dataTable?.rows.map((r) => r.cells.map((cell) => cell.value));
    if (text === 'an empty graph' || text === 'any graph') return;
    const graph = /^the (\S+) graph$/.exec(text);
    if (graph !== null) return this.loadGraph(graph[1] as string);
    if (text === 'having executed:') return this.setup(need(doc, text));
    if (text === 'parameters are:') return this.parameters(need(table, text));
    const proc = /^there exists a procedure (.+?)\s*:$/.exec(text);
    if (proc !== null) return this.procedure(proc[1] as string, table ?? []);
    if (text === 'executing query:') return this.query(need(doc, text));
    if (text === 'executing control query:') {
      this.executed = await this.execute(need(doc, text));
      return;
    }
    const rs = RESULT_STEPS.get(text);
    if (rs !== undefined) return this.checkRows(need(table, text), rs.order, rs.unorderedLists);
    if (text === 'the result should be empty') return this.checkEmpty();
    const err = ERROR_STEP_RE.exec(text);
    if (err !== null) return this.checkError(err[1] as string, err[2] as string, err[3] as string, next);
    if (text === 'no side effects') return this.checkSideEffects(new Map());
    if (text === 'the side effects should be:') {
      const expected = new Map<string, number>();
      for (const row of need(table, text)) {
        const [key, count] = row;
        if (key === undefined || count === undefined || !(SIDE_EFFECT_KEYS as readonly string[]).includes(key)) {
          throw new HarnessError(`bad side-effect row: ${row.join(' | ')}`);
        }
        expected.set(key, Number(count));
      }
      return this.checkSideEffects(expected);
    }
    throw new HarnessError(`unsupported step: ${text}`);
  }

  finish(): void {
    if (!this.queryRan) throw new HarnessError('the case never executes its query');
  }

  result(id: string): CaseResult {
    const outcomes = {} as Record<Level, Outcome>;
    let message: string | undefined;
    for (const level of LEVELS) {
      const problems = [...this.failures, ...this.levelFailures[level]];
      outcomes[level] = problems.length === 0 ? 'pass' : 'fail';
      message ??= problems[0];
    }
    return message === undefined ? { id, outcomes } : { id, outcomes, message };
  }

  private async loadGraph(name: string): Promise<void> {
    // Upstream keeps graphs/<name>/<name>.cypher; a flattened copy has graphs/<name>.cypher.
    const candidates = [join(this.options.graphsDir, name, `${name}.cypher`), join(this.options.graphsDir, `${name}.cypher`)];
    const file = candidates.find((f) => existsSync(f));
    if (file === undefined) throw new HarnessError(`graph ${name} not found at ${candidates.join(' or ')}`);
    const text = readFileSync(file, 'utf8').trim().replace(/;\s*$/, '');
    await this.setup(text);
  }

  private async setup(query: string): Promise<void> {
    try {
      await this.engine.execute(query, new Map());
    } catch (e) {
      throw new HarnessError(`setup query failed: ${describeError(e)}`);
    }
  }

  private parameters(rows: string[][]): void {
    for (const row of rows) {
      if (row.length !== 2) throw new HarnessError(`a parameter row needs 2 cells, got ${row.length}`);
      this.params.set(row[0] as string, tckToValue(parseTckValue(row[1] as string)));
    }
  }

  private async procedure(signature: string, table: string[][]): Promise<void> {
    const sig = parseProcedureSignature(signature);
    const [header = [], ...body] = table;
    const width = sig.inputs.length + sig.outputs.length;
    const names = header.filter((h) => h !== '');
    if (names.length !== width) throw new HarnessError(`procedure table has ${names.length} columns, signature ${width}`);
    const rows = body.map((r) => r.map((cell) => tckToValue(parseTckValue(cell))));
    await this.engine.registerProcedure({ ...sig, rows });
  }

  private async query(text: string): Promise<void> {
    this.before = await this.engine.graphState();
    this.executed = await this.execute(text);
    this.queryRan = true;
  }

  private async execute(text: string): Promise<Executed> {
    let result: TckResult;
    try {
      result = await this.engine.execute(text, this.params);
    } catch (e) {
      if (e instanceof CypherError) return { kind: 'error', error: e };
      return { kind: 'crash', error: e };
    }
    const rows: TckValue[][] = [];
    for (const r of result.rows) {
      const out: TckValue[] = [];
      for (const v of r) out.push(await renderValue(v, this.engine));
      rows.push(out);
    }
    return { kind: 'rows', columns: result.columns, rows };
  }

  private rowsOrFail(): Extract<Executed, { kind: 'rows' }> | undefined {
    const x = this.executed;
    if (x === undefined) throw new HarnessError('a result step before any query');
    if (x.kind === 'rows') return x;
    this.failures.push(x.kind === 'error' ? `unexpected error: ${describeError(x.error)}` : `engine crashed: ${describeError(x.error)}`);
    return undefined;
  }

  private checkRows(table: string[][], order: RowOrder, unorderedLists: boolean): void {
    const [header, ...body] = table;
    if (header === undefined) throw new HarnessError('a result table without a header');
    const expected: ExpectedTable = { columns: header, rows: body.map((r) => r.map(parseTckValue)) };
    const actual = this.rowsOrFail();
    if (actual === undefined) return;
    const diff = compareTables(expected, actual, order, unorderedLists);
    if (diff !== undefined) this.failures.push(`wrong result: ${diff}`);
  }

  private checkEmpty(): void {
    const actual = this.rowsOrFail();
    if (actual === undefined) return;
    if (actual.rows.length !== 0) this.failures.push(`expected no rows, got ${actual.rows.length}`);
    else if (actual.columns.length !== 0) this.failures.push(`expected no columns, got [${actual.columns.join(', ')}]`);
  }

  private async checkError(type: string, phase: string, detail: string, next: PickleStep | undefined): Promise<void> {
    const x = this.executed;
    if (x === undefined) throw new HarnessError('an error step before any query');
    if (x.kind === 'rows') {
      this.failures.push(`expected ${type} (${detail}) at ${phase}, but the query succeeded`);
    } else if (x.kind === 'crash') {
      this.failures.push(`expected ${type} (${detail}), but the engine crashed: ${describeError(x.error)}`);
    } else {
      const e = x.error;
      const typeOk = type === 'Error' || e.type === type;
      const phaseOk = phase === 'any time' || e.phase === phase;
      const detailOk = detail === '*' || e.detail === detail;
      const got = `${e.type} at ${e.phase}: ${e.detail}`;
      if (!(typeOk && phaseOk && detailOk)) this.levelFailures.strict.push(`expected ${type} at ${phase}: ${detail}, got ${got}`);
      if (!typeOk) this.levelFailures.type.push(`expected ${type}, got ${got}`);
    }
    // An error implies no side effects; the reference runner checks it when no step says otherwise.
    const nextIsSideEffects = next !== undefined && /^(no side effects|the side effects should be:)$/.test(next.text.trim());
    if (!nextIsSideEffects) await this.checkSideEffects(new Map());
  }

  private async checkSideEffects(expected: ReadonlyMap<string, number>): Promise<void> {
    if (this.before === undefined) throw new HarnessError('a side-effect step before the query');
    if (this.sideEffectsChecked) throw new HarnessError('side effects checked twice');
    this.sideEffectsChecked = true;
    const after = await this.engine.graphState();
    const actual: SideEffects = sideEffects(this.before, after);
    const wrong = SIDE_EFFECT_KEYS.filter((k: SideEffectKey) => actual[k] !== (expected.get(k) ?? 0));
    if (wrong.length > 0) {
      this.failures.push(`wrong side effects: ${wrong.map((k) => `${k} expected ${expected.get(k) ?? 0} got ${actual[k]}`).join(', ')}`);
    }
  }
}

function need<T>(x: T | undefined, step: string): T {
  if (x === undefined) throw new HarnessError(`step '${step}' needs an argument`);
  return x;
}

function describeError(e: unknown): string {
  if (e instanceof CypherError) return `${e.type} at ${e.phase}: ${e.detail} (${e.message})`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
