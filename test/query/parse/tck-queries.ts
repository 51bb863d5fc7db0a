import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Where the TCK feature files live: $WEFT_TCK_FEATURES, else the shared checkout beside the
 * repository. A missing TCK fails the tests that need it; it never skips them.
 */
export const tck_features_dir = process.env['WEFT_TCK_FEATURES'] ?? resolve(repo, '../shared/tck/features');

/** One query a TCK scenario (or one outline row) runs, with what it expects of compilation. */
export interface TckQuery {
  /** Stable id: `path|scenario name|pickle index`. */
  readonly id: string;
  readonly role: 'setup' | 'query' | 'control';
  readonly text: string;
  /** For the query under test: the expected error, if the scenario expects one. */
  readonly error?: { readonly type: string; readonly phase: string; readonly detail: string };
  /** Signatures of the procedures the scenario registers, as written: `test.my.proc(in :: INTEGER?) :: (out :: STRING?)`. */
  readonly procedures: readonly string[];
  /** Names of the parameters the scenario binds. */
  readonly parameters: readonly string[];
}

function featureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...featureFiles(path));
    else if (name.endsWith('.feature')) out.push(path);
  }
  return out;
}

const error_step = /^an? (.+) should be raised at (.+): (.+)$/;

/** Every query of every TCK scenario, outlines expanded, `@ignore` skipped. */
export function loadTckQueries(dir = tck_features_dir): TckQuery[] {
  const out: TckQuery[] = [];
  for (const file of featureFiles(dir)) {
    const source = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
    const newId = IdGenerator.incrementing();
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const document = parser.parse(source);
    const uri = relative(dir, file);
    const pickles = compile(document, uri, newId);
    pickles.forEach((pickle, index) => {
      if (pickle.tags.some((t) => t.name === '@ignore')) return;
      const id = `${uri}|${pickle.name}|${index}`;
      let query: { text: string } | undefined;
      let error: TckQuery['error'];
      const rest: TckQuery[] = [];
      const procedures: string[] = [];
      const parameters: string[] = [];
      for (const step of pickle.steps) {
        const text = step.text.trim();
        const doc = step.argument?.docString?.content;
        const proc = /^there exists a procedure (.*?)\s*:$/.exec(text);
        if (proc) procedures.push(proc[1]!);
        if (text === 'parameters are:') {
          for (const row of step.argument?.dataTable?.rows ?? []) parameters.push(row.cells[0]!.value);
        }
        if (text === 'having executed:' && doc !== undefined) rest.push({ id, role: 'setup', text: doc, procedures, parameters });
        else if (text === 'executing query:' && doc !== undefined) query = { text: doc };
        else if (text === 'executing control query:' && doc !== undefined) rest.push({ id, role: 'control', text: doc, procedures, parameters });
        const m = error_step.exec(text);
        if (m) error = { type: m[1]!, phase: m[2]!, detail: m[3]! };
      }
      out.push(...rest);
      if (query) {
        const base = { id, role: 'query' as const, text: query.text, procedures, parameters };
        out.push(error ? { ...base, error } : base);
      }
    });
  }
  return out;
}
