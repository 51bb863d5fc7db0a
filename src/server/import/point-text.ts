import type { PointValue } from '../../common/values/spatial.js';
import type { Value } from '../../common/values/value.js';
import { pointFromMap } from '../../query/functions/spatial-functions.js';
import { CypherError } from '../../query/errors.js';

/**
 * A CSV field of type `point`: the map text Neo4j's importer takes, `{latitude: 55.61, longitude: 12.99}`
 * or `{x: 1, y: 2, z: 3, crs: 'cartesian-3d'}`: keys bare, numbers as numbers, text quoted ('' or "")
 * or bare (`crs: WGS-84`). The map then makes a point as Cypher's `point()` does; undefined when the
 * text is no such map or the map no point.
 */
export function parsePointText(text: string): PointValue | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  const map = new Map<string, Value>();
  for (const entry of t.slice(1, -1).split(',')) {
    const colon = entry.indexOf(':');
    if (colon < 0) return undefined;
    const key = entry.slice(0, colon).trim();
    const raw = entry.slice(colon + 1).trim();
    if (!/^[A-Za-z_]\w*$/.test(key) || raw === '') return undefined;
    map.set(key, fieldValue(raw));
  }
  try {
    return pointFromMap(map) ?? undefined;
  } catch (e) {
    // The field is refused with the row's other bad values; what point() said is not needed to say so.
    if (e instanceof CypherError) return undefined;
    throw e;
  }
}

function fieldValue(raw: string): Value {
  const quoted = /^'(.*)'$|^"(.*)"$/.exec(raw);
  if (quoted !== null) return quoted[1] ?? quoted[2] ?? '';
  if (/^[+-]?\d+$/.test(raw)) return BigInt(raw);
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}
