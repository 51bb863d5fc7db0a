import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeState } from '../../src/log/codec.js';
import { checkpointFileName, loadCheckpoint, newestCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { checkpoint_magic } from '../../src/projections/checkpoint-frames.js';
import { StateMachine } from '../../src/projections/state-machine.js';

/** More nodes than one frame holds, each with an edge to the one before, so both kinds span frames. */
const nodes = 5_000;

function filled(extra_index = 0): StateMachine {
  const sm = new StateMachine();
  sm.apply({ index: 1, term: 1, commit_ts: 10, event: { kind: 'deployment_formed', deployment: new Uint8Array(16).fill(9), engine_format: 1 } }, true);
  const ops = [];
  for (let id = 1; id <= nodes; id++) {
    ops.push({ op: 'create_node' as const, id, labels: ['N'], props: [['seq', id] as [string, number]] });
    if (id > 1) ops.push({ op: 'create_edge' as const, id: id - 1, type: 'NEXT', source: id - 1, target: id, props: [] });
  }
  sm.apply({ index: 2, term: 1, commit_ts: 11, event: { kind: 'graph_write', ops } }, true);
  for (let i = 0; i < extra_index; i++) {
    sm.apply({ index: 3 + i, term: 1, commit_ts: 12 + i, event: { kind: 'graph_write', ops: [{ op: 'update_node', id: 1, add_labels: [], remove_labels: [], set: [['seq', -i]], replace: false }] } }, true);
  }
  return sm;
}

function digest(sm: StateMachine): { count: number; sum: number; edges: number; index: number } {
  const view = sm.committedView();
  let count = 0;
  let sum = 0;
  let edges = 0;
  for (let id = 1; id <= nodes; id++) {
    const n = view.node(id);
    if (n === undefined) continue;
    count++;
    sum += Number(n.props.get('seq'));
    edges += [...view.edgesOf(id, 'out')].length;
  }
  return { count, sum, edges, index: sm.committedIndex };
}

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'weft-ckpt-frames-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('checkpoint files (framed, format 2)', () => {
  it('round trip: nodes and edges spanning many frames load back as they were, from a file that starts with the magic', () => {
    withDir((dir) => {
      const sm = filled();
      const path = writeCheckpoint(dir, sm);
      expect(readFileSync(path).subarray(0, checkpoint_magic.byteLength).equals(checkpoint_magic)).toBe(true);
      const back = loadCheckpoint(dir);
      expect(digest(sm)).toEqual({ count: nodes, sum: (nodes * (nodes + 1)) / 2, edges: nodes - 1, index: 2 });
      expect(digest(back)).toEqual(digest(sm));
      expect(back.deployment).toEqual(new Uint8Array(16).fill(9));
      expect(newestCheckpoint(dir)?.index).toBe(2);
    });
  });

  it('a newest checkpoint cut short, or with one byte flipped in a middle frame, is passed over for the older one', () => {
    for (const damage of ['cut', 'flip'] as const) {
      withDir((dir) => {
        writeCheckpoint(dir, filled());
        const newer = writeCheckpoint(dir, filled(1));
        const size = readFileSync(newer).byteLength;
        if (damage === 'cut') truncateSync(newer, size - 3);
        else {
          const bytes = readFileSync(newer);
          bytes[Math.floor(size / 2)]! ^= 0x10;
          writeFileSync(newer, bytes);
        }
        const warnings: string[] = [];
        const back = loadCheckpoint(dir, (w) => warnings.push(w));
        expect(back.committedIndex, damage).toBe(2);
        expect(digest(back), damage).toEqual(digest(filled()));
        // An online backup copies the newest intact one too.
        expect(newestCheckpoint(dir)?.index, damage).toBe(2);
        expect(readdirSync(dir).filter((f) => f.endsWith('.ckpt'))).toHaveLength(2);
      });
    }
  });

  it('a format 1 checkpoint (a CRC then one body), as older releases wrote it, still loads', () => {
    withDir((dir) => {
      const sm = filled();
      const body = {
        format: 1,
        index: 2,
        deployment: sm.deployment,
        engine_format: sm.engineFormat,
        next_node_id: sm.graph.nextNodeId,
        next_edge_id: sm.graph.nextEdgeId,
        horizon_index: sm.graph.horizonIndex,
        nodes: [...sm.graph.nodeRecords()].map((r) => [r.id, [[r.head.index, r.head.ts, r.head.labels, [...r.head.props], r.head.deleted]]]),
        edges: [...sm.graph.edgeRecords()].map((r) => [r.id, r.type, r.source.id, r.target.id, [[r.head.index, r.head.ts, [...r.head.props], r.head.deleted]]]),
        operations: sm.operations.snapshot(2),
        clock: sm.clock.snapshot(),
        schema: sm.schema.snapshot(),
        blobs: sm.blobs.snapshot(),
      };
      const encoded = encodeState(body);
      const file = Buffer.alloc(4 + encoded.byteLength);
      file.writeUInt32LE(crc32(encoded), 0);
      file.set(encoded, 4);
      writeFileSync(join(dir, checkpointFileName(2)), file);
      expect(digest(loadCheckpoint(dir))).toEqual(digest(sm));
      expect(newestCheckpoint(dir)?.index).toBe(2);
    });
  });
});
