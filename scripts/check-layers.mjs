// Keeps the layers of DESIGN section 1 honest: dependencies point inward only.
// api -> query -> projections -> log -> common; server and cli may use everything; src/gen is the wire contract.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');

/** For each layer, the layers it may import besides itself. */
const allowed = {
  common: [],
  log: ['common'],
  projections: ['log', 'common'],
  query: ['projections', 'log', 'common'],
  api: ['query', 'projections', 'log', 'gen', 'common'],
  gen: ['common'],
  // The client SDK (`weft/client`): the wire contract and the shared basics, nothing of the server.
  client: ['gen', 'common'],
  server: ['api', 'query', 'projections', 'log', 'gen', 'cli', 'common'],
  cli: ['api', 'query', 'projections', 'log', 'gen', 'server', 'common'],
  '.': ['api', 'query', 'projections', 'log', 'gen', 'server', 'cli', 'common'],
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function layerOf(path) {
  const rel = relative(src, path);
  const first = rel.split('/')[0];
  return rel.includes('/') ? first : '.';
}

const problems = [];
const importRe = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
for (const file of files(src)) {
  const from = layerOf(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (!spec || !spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(src + '/')) continue;
    const to = layerOf(target);
    if (to === from) continue;
    if (!(allowed[from] ?? []).includes(to)) {
      problems.push(`${relative(root, file)}: layer '${from}' must not import '${to}' (${spec})`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`layers: ${problems.length} violation(s)`);
  process.exit(1);
}
console.log('layers: ok');
