// Writes docs/openapi.json: the OpenAPI document a freshly started member serves at /v1/openapi.json.
// Taken from a running server (ports chosen by the OS, a throwaway data directory) so the file holds
// exactly the routes the server registers; test/process/openapi.test.ts fails when it is stale.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../src/server/config.js';
import { startServer } from '../src/server/server.js';
import { openapi_path } from '../src/api/openapi.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs/openapi.json');
const dir = mkdtempSync(join(tmpdir(), 'weft-openapi-'));
const server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
try {
  const res = await fetch(`http://127.0.0.1:${server.ports.rest}${openapi_path}`);
  if (res.status !== 200) throw new Error(`GET ${openapi_path} answered ${res.status}`);
  writeFileSync(out, JSON.stringify(await res.json(), null, 2) + '\n');
  console.log(`openapi: wrote ${out}`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
