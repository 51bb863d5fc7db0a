import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The OpenAPI document against a real `weft serve`: it lists exactly the routes the server answers,
 * its references resolve, what the server sends fits its schemas, and docs/openapi.json is fresh.
 */
interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties?: Record<string, { type?: string; format?: string; $ref?: string }> }> };
}

const verbs = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Sends one request and reports whether the server has a route for it (anything but ROUTE_NOT_FOUND). */
async function routed(base: string, method: string, path: string): Promise<boolean> {
  const controller = new AbortController();
  const res = await fetch(base + path.replace(/\{[^}]+\}/g, '1'), {
    method,
    signal: controller.signal,
    ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }),
  });
  // A stream (the change feed) never ends by itself: the status and the first bytes are enough.
  const type = res.headers.get('content-type') ?? '';
  const body = type.startsWith('application/json') ? ((await res.json()) as { reason?: string }) : {};
  controller.abort();
  return !(res.status === 404 && body.reason === 'ROUTE_NOT_FOUND');
}

describe('OpenAPI document', () => {
  let dir: string;
  let server: ServerProcess;
  let doc: Doc;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-openapi-'));
    server = await startServerProcess(dir);
    const res = await fetch(`${server.rest}/v1/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client reads the document at /v1/openapi.json and every operation in it is a route the server answers', async () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => [m.toUpperCase(), path] as const));
    expect(operations.length).toBeGreaterThan(20);
    for (const [method, path] of operations) expect(await routed(server.rest, method, path), `${method} ${path}`).toBe(true);
  });

  it('no verb the document leaves out of a path is answered at that path', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const verb of verbs) {
        if (item[verb.toLowerCase()] !== undefined) continue;
        expect(await routed(server.rest, verb, path), `${verb} ${path}`).toBe(false);
      }
    }
  });

  it('every $ref names a schema of the document', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) expect(doc.components.schemas[ref], ref).toBeDefined();
  });

  it('a created node comes back with exactly the fields its schema names, 64-bit ids as decimal strings', async () => {
    const res = await fetch(`${server.rest}/v1/graph/nodes`, { method: 'POST', body: JSON.stringify({ labels: ['Doc'], properties: { n: { intValue: '7' } } }) });
    const node = (await res.json()) as Record<string, unknown>;
    const schema = doc.components.schemas['weft.v1.Node']!.properties!;
    for (const key of Object.keys(node)) expect(schema[key], `Node.${key}`).toBeDefined();
    expect(schema['nodeId']).toMatchObject({ type: 'string', format: 'uint64' });
    expect(typeof node['nodeId']).toBe('string');
    expect(doc.components.schemas['weft.v1.ReadConcernLevel']).toMatchObject({ type: 'string', enum: expect.arrayContaining(['READ_CONCERN_LEVEL_SNAPSHOT']) as unknown });
  });

  it('docs/openapi.json is what the server serves (regenerate with `npm run gen:openapi`)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Doc;
    expect(committed).toEqual(doc);
  });
});
