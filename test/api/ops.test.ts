import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsServer, type OpsServerHandle, type Readiness } from '../../src/api/ops-server.js';
import { MetricsRegistry, prometheus_content_type } from '../../src/common/metrics.js';

describe('the ops port', () => {
  let ops: OpsServerHandle;
  let readiness: Readiness = { ready: false, reason: 'replaying the log' };
  const registry = new MetricsRegistry();
  const readOnly = registry.gauge({ name: 'graphdb_version_read_only', help: '1 while the member does not run its group version' });
  const refused = registry.counter({ name: 'graphdb_version_refused_writes_total', help: 'writes refused as read-only' });
  const base = (): string => `http://127.0.0.1:${ops.port}`;

  beforeAll(async () => {
    ops = await startOpsServer({
      port: 0,
      answers: {
        health: () => ({ status: 'ok' }),
        ready: () => readiness,
        metrics: () => registry.expose(),
        version: () => ({ node_id: 1, pair: { engine: 1, host_epoch: 0 }, read_only: null, pause_ms: null }),
      },
    });
  });
  afterAll(() => ops.stop());

  it('GET /health answers {"status": ...}', async () => {
    const res = await fetch(`${base()}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /ready is 503 with a reason until the server is ready, then 200', async () => {
    const before = await fetch(`${base()}/ready`);
    expect(before.status).toBe(503);
    expect(await before.json()).toEqual({ ready: false, reason: 'replaying the log' });
    readiness = { ready: true };
    const after = await fetch(`${base()}/ready`);
    expect(after.status).toBe(200);
  });

  it('GET /metrics serves Prometheus text 0.0.4 with the registered metrics', async () => {
    readOnly.set(1);
    refused.inc({}, 3);
    const res = await fetch(`${base()}/metrics`);
    expect(res.headers.get('content-type')).toBe(prometheus_content_type);
    const text = await res.text();
    expect(text).toContain('# TYPE graphdb_version_read_only gauge\ngraphdb_version_read_only 1\n');
    expect(text).toContain('# TYPE graphdb_version_refused_writes_total counter\ngraphdb_version_refused_writes_total 3\n');
  });

  it('GET /version serves the version report', async () => {
    const res = await fetch(`${base()}/version`);
    expect(await res.json()).toMatchObject({ node_id: 1, pair: { engine: 1, host_epoch: 0 }, read_only: null });
  });

  it('an unknown path is 404 and a POST is 405', async () => {
    expect((await fetch(`${base()}/nothing`)).status).toBe(404);
    expect((await fetch(`${base()}/health`, { method: 'POST' })).status).toBe(405);
  });
});

describe('metrics registry', () => {
  it('exposes labelled counters, escaping label values', () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'graphdb_calls_total', help: 'calls', label_names: ['method', 'code'] });
    c.inc({ method: 'GetNode', code: 'OK' });
    c.inc({ method: 'GetNode', code: 'OK' }, 2);
    c.inc({ method: 'say "hi"\n', code: 'NOT_FOUND' });
    expect(r.expose()).toBe(
      [
        '# HELP graphdb_calls_total calls',
        '# TYPE graphdb_calls_total counter',
        'graphdb_calls_total{method="GetNode",code="OK"} 3',
        'graphdb_calls_total{method="say \\"hi\\"\\n",code="NOT_FOUND"} 1',
        '',
      ].join('\n'),
    );
  });

  it('histograms count cumulatively per bucket, with sum and count', () => {
    const r = new MetricsRegistry();
    const h = r.histogram({ name: 'graphdb_latency_seconds', help: 'latency', buckets: [0.1, 1] });
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(v);
    expect(r.expose()).toBe(
      [
        '# HELP graphdb_latency_seconds latency',
        '# TYPE graphdb_latency_seconds histogram',
        'graphdb_latency_seconds_bucket{le="0.1"} 2',
        'graphdb_latency_seconds_bucket{le="1"} 3',
        'graphdb_latency_seconds_bucket{le="+Inf"} 4',
        'graphdb_latency_seconds_sum 3.65',
        'graphdb_latency_seconds_count 4',
        '',
      ].join('\n'),
    );
  });

  it('refuses what Prometheus would refuse: a bad name, a duplicate, wrong labels, a counter going down', () => {
    const r = new MetricsRegistry();
    expect(() => r.counter({ name: 'graphdb-bad', help: '' })).toThrow();
    r.gauge({ name: 'graphdb_x', help: '' });
    expect(() => r.gauge({ name: 'graphdb_x', help: '' })).toThrow();
    const c = r.counter({ name: 'graphdb_y_total', help: '', label_names: ['a'] });
    expect(() => c.inc({ b: '1' })).toThrow();
    expect(() => c.inc({ a: '1', b: '2' })).toThrow(/takes labels \[a\], got \[a, b\]/);
    expect(() => c.inc({})).toThrow();
    expect(() => c.inc({ a: '1' }, -1)).toThrow();
    const two = r.histogram({ name: 'graphdb_z_seconds', help: '', label_names: ['a', 'b'], buckets: [1] });
    expect(() => two.observe(0.5, { a: '1' })).toThrow(/takes labels \[a, b\], got \[a\]/);
    two.observe(0.5, { a: '1', b: '2' });
    two.observe(Number.NaN, { a: '1', b: '2' });
    expect(r.expose()).toContain('graphdb_z_seconds_bucket{a="1",b="2",le="1"} 1\ngraphdb_z_seconds_bucket{a="1",b="2",le="+Inf"} 2\n');
  });
});
