/**
 * Full-text search on a generated corpus: `--docs` documents of 20 to 200 words drawn from a
 * Zipf-distributed vocabulary of `--vocabulary` made-up words (seeded, `--seed`).
 *
 * - build rate: CREATE FULLTEXT INDEX over the stored documents (online build through the log);
 * - query latency through Cypher for single words (frequent and rare), two-word AND queries,
 *   phrases and prefixes, with `text_match` as the filter, and a BM25 top-10 by `text_score`;
 * - recall: every text_match answer set is compared with a brute-force scan of the texts.
 *
 *   npx tsx bench/text.ts [--docs 50000] [--vocabulary 5000] [--queries 200] [--seed 7]
 *
 * Prints a table and writes bench/results/text.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../src/index.js';
import { seeded } from './vector-data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const docs = arg('docs', 50_000);
const vocabulary = arg('vocabulary', 5000);
const queryCount = arg('queries', 200);
const seed = arg('seed', 7);
const seed_batch_nodes = 5000;

interface Row {
  readonly case: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}

function pct(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const r = seeded(seed);
  const consonants = 'bcdfghklmnprstvz';
  const vowels = 'aeiou';
  const word = (i: number): string => {
    let s = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / 80)) s += consonants[n % 16]! + vowels[Math.floor(n / 16) % 5]!;
    return `${s}x`;
  };
  const words = [...Array(vocabulary).keys()].map(word);
  // Zipf: word i drawn with weight 1 / (i + 1).
  const weights = words.map((_, i) => 1 / (i + 1));
  const cumulative: number[] = [];
  weights.reduce((acc, w) => (cumulative.push(acc + w), acc + w), 0);
  const total = cumulative[cumulative.length - 1]!;
  const draw = (): string => {
    const x = r() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  const texts = [...Array(docs).keys()].map(() => [...Array(20 + Math.floor(r() * 181)).keys()].map(draw).join(' '));
  const tokens = texts.map((t) => t.split(' '));
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-text-'));
  let db = await open(dir, { index_build_statement_wait_secs: 3600 });
  try {
    for (let i = 0; i < docs; i += seed_batch_nodes) {
      await db.database.write(
        (ws) => {
          for (let j = i; j < Math.min(docs, i + seed_batch_nodes); j++) ws.createNode(['Doc'], new Map<string, bigint | string>([['id', BigInt(j)], ['body', texts[j]!]]));
        },
        { concern: { acks: 1, level: 'journal', timeout_ms: 0 } },
      );
    }
    let t = performance.now();
    await db.query("CREATE FULLTEXT INDEX doc_body FOR (d:Doc) ON EACH [d.body] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard'}}");
    const build_s = (performance.now() - t) / 1000;
    const terms = tokens.reduce((n, x) => n + x.length, 0);
    rows.push({ case: 'build (CREATE FULLTEXT INDEX)', value: docs / build_s, unit: 'docs/s', note: `${build_s.toFixed(2)} s for ${docs} docs, ${terms} terms` });

    const kinds: { name: string; make: () => string; brute: (q: string) => (toks: readonly string[], text: string) => boolean }[] = [
      { name: 'frequent word', make: () => words[Math.floor(r() * 20)]!, brute: (q) => (toks) => toks.includes(q) },
      { name: 'rare word', make: () => words[500 + Math.floor(r() * (vocabulary - 500))]!, brute: (q) => (toks) => toks.includes(q) },
      {
        name: 'two words (AND)',
        make: () => `${words[Math.floor(r() * 200)]!} ${words[Math.floor(r() * 200)]!}`,
        brute: (q) => {
          const [a, b] = q.split(' ');
          return (toks) => toks.includes(a!) && toks.includes(b!);
        },
      },
      {
        name: 'phrase',
        make: () => {
          const toks = tokens[Math.floor(r() * docs)]!;
          const at = Math.floor(r() * (toks.length - 1));
          return `"${toks[at]!} ${toks[at + 1]!}"`;
        },
        brute: (q) => (_toks, text) => ` ${text} `.includes(` ${q.slice(1, -1)} `),
      },
      {
        name: 'prefix',
        make: () => `${words[Math.floor(r() * 300)]!.slice(0, 3)}*`,
        brute: (q) => (toks) => toks.some((w) => w.startsWith(q.slice(0, -1))),
      },
    ];
    const filter = 'MATCH (d:Doc) WHERE text_match(d.body, $q) RETURN d.id';
    await db.query(filter, { q: words[0]! });
    for (const kind of kinds) {
      const lat: number[] = [];
      let hits = 0;
      let found = 0;
      let wanted = 0;
      for (let i = 0; i < queryCount; i++) {
        const q = kind.make();
        t = performance.now();
        const res = await db.query(filter, { q });
        lat.push(performance.now() - t);
        const got = new Set(res.rows.map((row) => Number(row[0] as bigint)));
        const test = kind.brute(q);
        for (let j = 0; j < docs; j++) {
          if (!test(tokens[j]!, texts[j]!)) continue;
          wanted++;
          if (got.has(j)) found++;
        }
        hits += got.size;
      }
      lat.sort((a, b) => a - b);
      rows.push({
        case: `text_match: ${kind.name}`,
        value: pct(lat, 50),
        unit: 'ms p50',
        note: `p99 ${pct(lat, 99).toFixed(2)} ms, ${(hits / queryCount).toFixed(0)} rows/query, recall ${wanted === 0 ? 1 : (found / wanted).toFixed(4)}, extra ${hits - found}`,
      });
    }
    const top = 'MATCH (d:Doc) WHERE text_match(d.body, $q) RETURN d.id, text_score(d.body, $q) AS s ORDER BY s DESC LIMIT 10';
    const lat: number[] = [];
    for (let i = 0; i < queryCount; i++) {
      const q = words[20 + Math.floor(r() * 200)]!;
      t = performance.now();
      await db.query(top, { q });
      lat.push(performance.now() - t);
    }
    lat.sort((a, b) => a - b);
    rows.push({ case: 'BM25 top-10 (text_score)', value: pct(lat, 50), unit: 'ms p50', note: `p99 ${pct(lat, 99).toFixed(2)} ms` });

    // Reopening refills the text index from the checkpoint's nodes (it is not saved beside the
    // checkpoint): the open with the index against the open after it was dropped shows that refill.
    const probe = words[30]!;
    const before = (await db.query(filter, { q: probe })).rows.length;
    await db.close();
    t = performance.now();
    db = await open(dir);
    const reopen_s = (performance.now() - t) / 1000;
    const after = (await db.query(filter, { q: probe })).rows.length;
    await db.query('DROP INDEX doc_body');
    await db.close();
    t = performance.now();
    db = await open(dir);
    const bare_s = (performance.now() - t) / 1000;
    rows.push({
      case: 'reopen with the text index',
      value: reopen_s,
      unit: 's',
      note: `without it ${bare_s.toFixed(2)} s: the refill costs ${(reopen_s - bare_s).toFixed(2)} s (build ${build_s.toFixed(2)} s); same answers: ${before === after}`,
    });
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`text bench: ${docs} docs, vocabulary ${vocabulary}, ${queryCount} queries per kind, seed ${seed}`);
  console.log('\n| case | value | unit | note |\n|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.case} | ${row.value.toFixed(2)} | ${row.unit} | ${row.note ?? ''} |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/text.json', JSON.stringify({ docs, vocabulary, queries: queryCount, seed, rows }, null, 2));
}

await main();
