import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { InputReader, inputsOf } from '../../src/cli/shell/input.js';
import { renderPlan } from '../../src/cli/shell/render.js';
import { QueryPlanSchema } from '../../src/gen/weft/v1/query_pb.js';

describe('shell input', () => {
  it('a ; inside strings, backquoted names and comments does not end a statement', () => {
    const text = "RETURN 'a;b' AS `x;y`; // no; end here\nMATCH (n) /* ; */ RETURN \"c\\\";\" AS s;\nRETURN 1";
    expect(inputsOf(text)).toEqual(["RETURN 'a;b' AS `x;y`", '// no; end here\nMATCH (n) /* ; */ RETURN "c\\";" AS s', 'RETURN 1']);
  });

  it('a :command is a line of its own only between statements; inside one it is Cypher', () => {
    const reader = new InputReader();
    expect(reader.line(':param x => 1')).toEqual([':param x => 1']);
    expect(reader.line('MATCH (n {a: 1})')).toEqual([]);
    expect(reader.pending).toBe(true);
    expect(reader.line(':begin')).toEqual([]);
    expect(reader.line('RETURN n;')).toEqual(['MATCH (n {a: 1})\n:begin\nRETURN n']);
    expect(reader.pending).toBe(false);
  });

  it('Ctrl-C drops the half-typed statement', () => {
    const reader = new InputReader();
    reader.line('MATCH (n)');
    reader.discard();
    expect(reader.line('RETURN 2;')).toEqual(['RETURN 2']);
  });

  it('a plan is drawn as a tree with estimated rows, and its suggestions below it', () => {
    const plan = create(QueryPlanSchema, {
      operator: 'ProduceResults',
      estimatedRows: 2,
      details: { columns: 'n', suggestions: '[WARNING] no index. Suggested: CREATE INDEX i FOR (n:A) ON (n.x)' },
      children: [
        {
          operator: 'Join',
          estimatedRows: 2.5,
          children: [
            { operator: 'Scan', estimatedRows: 10, details: { label: 'A' } },
            { operator: 'Scan', estimatedRows: 3, details: { label: 'B' } },
          ],
        },
      ],
    });
    expect(renderPlan(plan)).toBe(
      [
        'ProduceResults  (est. 2 rows)  columns=n',
        '└─ Join  (est. 2.5 rows)',
        '   ├─ Scan  (est. 10 rows)  label=A',
        '   └─ Scan  (est. 3 rows)  label=B',
        '',
        'suggestions:',
        '  [WARNING] no index. Suggested: CREATE INDEX i FOR (n:A) ON (n.x)',
        '',
      ].join('\n'),
    );
  });
});
