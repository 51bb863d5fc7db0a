import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator, type GherkinDocument, type Pickle, type PickleStep } from '@cucumber/messages';

/**
 * Loading TCK feature files: parse with the standard Gherkin parser, expand outlines and the Background
 * into one runnable case per scenario or Examples row (Gherkin "pickles"), and give each a stable id
 * `path|n|exampleRowIndex` (n from the `[n]` prefix of the name, row index -1 for a plain scenario).
 */
export interface TckCase {
  readonly id: string;
  /** Feature path relative to the features root, with `/` separators. */
  readonly path: string;
  readonly name: string;
  readonly steps: readonly PickleStep[];
  readonly tags: readonly string[];
}

export interface LoadedFeatures {
  readonly cases: readonly TckCase[];
  /** Scenario and Scenario Outline blocks, before expansion. */
  readonly rawScenarios: number;
  /** Cases skipped by tag (`@ignore`), by id. */
  readonly skipped: readonly string[];
}

export function featureFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.feature')) out.push(p);
    }
  };
  walk(root);
  return out;
}

export function parseFeature(text: string, path: string): { cases: TckCase[]; rawScenarios: number; skipped: string[] } {
  const newId = IdGenerator.incrementing();
  const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
  const doc: GherkinDocument = parser.parse(text.replace(/\r\n?/g, '\n'));
  const rowIndex = new Map<string, number>();
  let rawScenarios = 0;
  for (const child of doc.feature?.children ?? []) {
    const sc = child.scenario;
    if (sc === undefined) continue;
    rawScenarios++;
    let i = 0;
    for (const ex of sc.examples) for (const row of ex.tableBody) rowIndex.set(row.id, i++);
  }
  const pickles: readonly Pickle[] = compile(doc, path, newId);
  const cases: TckCase[] = [];
  const skipped: string[] = [];
  for (const p of pickles) {
    const n = /^\[(\d+)\]/.exec(p.name)?.[1] ?? p.name;
    const row = p.astNodeIds.length > 1 ? (rowIndex.get(p.astNodeIds[p.astNodeIds.length - 1] as string) ?? -1) : -1;
    const c: TckCase = { id: `${path}|${n}|${row}`, path, name: p.name, steps: p.steps, tags: p.tags.map((t) => t.name) };
    if (c.tags.includes('@ignore')) skipped.push(c.id);
    else cases.push(c);
  }
  return { cases, rawScenarios, skipped };
}

export function loadFeatures(root: string, filter?: string): LoadedFeatures {
  const cases: TckCase[] = [];
  const skipped: string[] = [];
  let rawScenarios = 0;
  for (const file of featureFiles(root)) {
    const path = relative(root, file).split('\\').join('/');
    const parsed = parseFeature(readFileSync(file, 'utf8'), path);
    const keep = (c: TckCase): boolean => filter === undefined || c.id.includes(filter) || c.name.includes(filter);
    const kept = parsed.cases.filter(keep);
    if (filter === undefined || kept.length > 0) rawScenarios += parsed.rawScenarios;
    cases.push(...kept);
    skipped.push(...parsed.skipped.filter((id) => filter === undefined || id.includes(filter)));
  }
  return { cases, rawScenarios, skipped };
}
