import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The web console in headless Chromium against a real `weft serve`, used from the keyboard and the
 * mouse as a person would: type a query, run it, see the table and the graph, expand a node, explain,
 * read the schema and the cluster status. Screenshots of each step go to .tmp/console-screenshots/.
 */
const chromium = process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium';
const shots = fileURLToPath(new URL('../../.tmp/console-screenshots/', import.meta.url));
const ui_wait_ms = 15_000;

describe('web console', () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    expect(existsSync(chromium), `Chromium is needed at ${chromium} (apt-get install chromium; .ci/run does)`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'weft-console-'));
    server = await startServerProcess(join(dir, 'data'));
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    // Undefined when the set-up failed before they were made.
    await (server as ServerProcess | undefined)?.stop();
    if ((dir as string | undefined) !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function shot(name: string): Promise<void> {
    const path = join(shots, `${name}.png`);
    await page.screenshot({ path });
    console.log(`screenshot: ${path}`);
  }

  async function statusText(pattern: RegExp): Promise<string> {
    // Functions that run in the page are given as text: this project's types have no DOM.
    await page.waitForFunction(`new RegExp(${JSON.stringify(pattern.source)}).test(document.getElementById('status')?.textContent ?? '')`, { timeout: ui_wait_ms });
    return page.$eval('#status', (e) => e.textContent ?? '');
  }

  it('a person types a query, runs it with Ctrl+Enter, reads the table, sees the graph and expands a node', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // Every byte the page loads comes from the server: it works with no network.
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.rest)) foreign.push(r.url());
    });
    await page.goto(`${server.rest}/console/`);
    await page.waitForSelector('#editor');
    await page.focus('#editor');
    await page.keyboard.type("CREATE (a:Person {name: 'Ada'})-[:KNOWS]->(b:Person {name: 'Bob'}), (b)-[:KNOWS]->(:Person {name: 'Cy'}), (a)-[:LIKES]->(:Film {title: 'Metropolis'})");
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await statusText(/0 rows/);

    await page.click('#editor', { clickCount: 3 });
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type("MATCH (p:Person {name: $name})-[r:KNOWS]->(q) RETURN p, r, q, q.name AS friend");
    await page.focus('#params');
    await page.keyboard.type('{"name": "Ada"}');
    await page.focus('#editor');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    expect(await statusText(/1 row in [\d.]+ ms/)).toMatch(/^1 row/);
    const cells = await page.$$eval('#view-table td', (tds) => tds.map((td) => td.textContent));
    expect(cells).toContain("'Bob'");
    expect(await page.$$eval('#editor-highlight .hl-keyword', (s) => s.map((x) => x.textContent))).toEqual(expect.arrayContaining(['MATCH', 'RETURN', 'AS']));
    expect(await page.$$eval('#editor-highlight .hl-param', (s) => s.map((x) => x.textContent))).toEqual(['$name']);
    await shot('1-table');

    await page.keyboard.down('Alt');
    await page.keyboard.press('2');
    await page.keyboard.up('Alt');
    await page.waitForSelector('#view-graph svg g.node', { visible: true, timeout: ui_wait_ms });
    expect(await page.$$eval('#view-graph g.node', (g) => g.length)).toBe(2);
    expect(await page.$$eval('#view-graph .edge-label', (t) => t.map((x) => x.textContent))).toEqual(['KNOWS']);
    const colours = await page.$$eval('#view-graph g.node circle', (c) => c.map((x) => x.getAttribute('fill')));
    expect(new Set(colours).size).toBe(1);
    await shot('2-graph');

    // Bob's neighbours: Ada (already drawn) and Cy.
    const bob = await page.$$eval('#view-graph g.node', (gs) => gs.find((g) => g.textContent?.includes('Bob'))?.getAttribute('data-node-id') ?? '');
    await page.click(`#view-graph g.node[data-node-id="${bob}"] circle`);
    await statusText(/expanded node/);
    expect(await page.$$eval('#view-graph g.node', (g) => g.length)).toBe(3);
    // Ada by keyboard: Tab to her node and press Enter; her film joins in another colour.
    const ada = await page.$$eval('#view-graph g.node', (gs) => gs.find((g) => g.textContent?.includes('Ada'))?.getAttribute('data-node-id') ?? '');
    await page.focus('#tab-graph');
    for (let tabs = 0; tabs < 10; tabs++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate("document.activeElement?.getAttribute('data-node-id') ?? ''")) === ada) break;
    }
    expect(await page.evaluate("document.activeElement?.getAttribute('data-node-id') ?? ''")).toBe(ada);
    await page.keyboard.press('Enter');
    await page.waitForFunction("document.querySelectorAll('#view-graph g.node').length === 4", { timeout: ui_wait_ms });
    const after = await page.$$eval('#view-graph g.node circle', (c) => c.map((x) => x.getAttribute('fill')));
    expect(new Set(after).size).toBe(2);
    await shot('3-expanded');
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('Ctrl+Shift+Enter draws the plan with estimated rows and the index suggestion; the schema lists what exists; Alt+Up recalls history', async () => {
    await page.focus('#editor');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('MATCH (p:Person) WHERE p.name = $name RETURN p');
    await page.keyboard.down('Control');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Shift');
    await page.keyboard.up('Control');
    await page.waitForSelector('#view-plan .plan strong', { visible: true, timeout: ui_wait_ms });
    const plan = await page.$eval('#view-plan', (e) => e.textContent ?? '');
    expect(plan).toMatch(/ProduceResults est\. [\d.]+ rows/);
    expect(plan).toMatch(/Suggestions.*CREATE INDEX/s);
    await shot('4-plan');

    // A constraint made from the editor: the schema shows it ACTIVE, and its index's build with its progress.
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('CREATE CONSTRAINT film_title FOR (f:Film) REQUIRE f.title IS UNIQUE');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    // The statement returns once the build published (or its wait ran out); the panel is read again then.
    await statusText(/0 rows/);
    await page.click('#refresh-schema');
    await page.waitForFunction("(document.getElementById('schema')?.textContent ?? '').includes('film_title: UNIQUE :Film(title) ACTIVE')", { timeout: ui_wait_ms });
    const schema = await page.$$eval('#schema li', (li) => li.map((x) => x.textContent ?? ''));
    expect(schema).toEqual(expect.arrayContaining(['Person', 'Film', 'KNOWS', 'LIKES', 'film_title: UNIQUE :Film(title) ACTIVE']));
    expect(schema).toEqual(expect.arrayContaining([expect.stringMatching(/ on :Film: PUBLISHED, 1 node indexed$/)]));

    await page.focus('#editor');
    await page.keyboard.down('Alt');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.up('Alt');
    expect(await page.$eval('#editor', (e) => (e as unknown as { value: string }).value)).toMatch(/^MATCH \(p:Person \{name: \$name\}\)-\[r:KNOWS\]/);
    await shot('5-schema-history');
  });

  it('the cluster panel shows the one-member group as LEADER/HEALTHY, refreshes on Alt+R, and says so when the call fails', async () => {
    await page.waitForSelector('#cluster tr[data-node-id]', { timeout: ui_wait_ms });
    const row = await page.$$eval('#cluster tr[data-node-id] td', (tds) => tds.map((td) => td.textContent ?? ''));
    expect(row[0]).toBe('1');
    expect(row[2]).toBe('LEADER');
    expect(row[3]).toBe('HEALTHY');
    expect(await page.$eval('#cluster .cluster-summary', (e) => e.textContent ?? '')).toMatch(/^leader 1 · term [1-9]\d* · deployment [0-9a-f]{32}$/);
    await shot('6-cluster');

    // The member goes away (as the browser sees it): the panel keeps the last table, marked stale.
    await page.setRequestInterception(true);
    const refuse = (r: HTTPRequest): void => {
      if (r.url().endsWith('/v1/admin/cluster/status')) void r.respond({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'UNAVAILABLE', reason: 'NOT_LEADER', message: 'no leader' }) });
      else void r.continue();
    };
    page.on('request', refuse);
    await page.focus('#editor');
    await page.keyboard.down('Alt');
    await page.keyboard.press('KeyR');
    await page.keyboard.up('Alt');
    await page.waitForFunction("(document.getElementById('cluster-state')?.textContent ?? '').startsWith('cluster status unavailable: UNAVAILABLE (NOT_LEADER)')", { timeout: ui_wait_ms });
    expect(await page.$eval('#cluster', (e) => e.className)).toContain('stale');
    await shot('7-cluster-unavailable');

    // Back again: the refresh button, reached by keyboard focus and Enter, reads it anew.
    page.off('request', refuse);
    await page.setRequestInterception(false);
    await page.focus('#refresh-cluster');
    await page.keyboard.press('Enter');
    await page.waitForFunction("(document.getElementById('cluster-state')?.textContent ?? '').startsWith('read at')", { timeout: ui_wait_ms });
    expect(await page.$eval('#cluster', (e) => e.className)).not.toContain('stale');
  });
});

describe('web console setting', () => {
  it('with console OFF the REST port serves the API but no /console/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-console-off-'));
    const server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0, console: 'OFF' }, () => {});
    try {
      const page = await fetch(`http://127.0.0.1:${server.ports.rest}/console/`);
      expect(page.status).toBe(404);
      expect(await page.json()).toMatchObject({ reason: 'ROUTE_NOT_FOUND' });
      const api = await fetch(`http://127.0.0.1:${server.ports.rest}/v1/query/cypher`, { method: 'POST', body: '{"query": "RETURN 1 AS one"}' });
      expect(api.status).toBe(200);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
