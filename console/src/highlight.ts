/** Cypher highlighting for the editor: the text split into keyword, string, number, comment, parameter and plain runs. */
const keywords = new Set(
  (
    'MATCH OPTIONAL WHERE RETURN WITH UNWIND CREATE MERGE SET DELETE DETACH REMOVE ORDER BY SKIP LIMIT ASC DESC ' +
    'ASCENDING DESCENDING AND OR XOR NOT IN IS NULL TRUE FALSE AS DISTINCT CASE WHEN THEN ELSE END ON CALL YIELD ' +
    'UNION ALL EXISTS INDEX CONSTRAINT UNIQUE FOR REQUIRE DROP EXPLAIN OF TIMESTAMP STARTS ENDS CONTAINS COUNT'
  ).split(' '),
);

export type Run = { readonly kind: 'keyword' | 'string' | 'number' | 'comment' | 'param' | 'plain'; readonly text: string };

const token = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(\$[A-Za-z_][A-Za-z0-9_]*)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)/g;

export function highlight(text: string): Run[] {
  const runs: Run[] = [];
  let at = 0;
  for (const m of text.matchAll(token)) {
    if (m.index > at) runs.push({ kind: 'plain', text: text.slice(at, m.index) });
    const [whole, comment, string, param, number, word] = m;
    if (comment !== undefined) runs.push({ kind: 'comment', text: whole });
    else if (string !== undefined) runs.push({ kind: 'string', text: whole });
    else if (param !== undefined) runs.push({ kind: 'param', text: whole });
    else if (number !== undefined) runs.push({ kind: 'number', text: whole });
    else runs.push({ kind: word !== undefined && keywords.has(word.toUpperCase()) ? 'keyword' : 'plain', text: whole });
    at = m.index + whole.length;
  }
  if (at < text.length) runs.push({ kind: 'plain', text: text.slice(at) });
  return runs;
}
