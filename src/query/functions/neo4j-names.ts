/**
 * The names the Neo4j 5 manual spells with capitals, by Weft's canonical lower-case name. Lookup is
 * case-insensitive, so these are only how SHOW FUNCTIONS shows a function; a function whose manual name
 * is all lower case (`date.truncate`, `vector.similarity.cosine`) is not listed here. Names of functions
 * Weft does not have are listed too, so a function added later is shown as the manual spells it.
 */
const manual_names: readonly string[] = [
  'elementId',
  'endNode',
  'startNode',
  'isEmpty',
  'isNaN',
  'nullIf',
  'randomUUID',
  'valueType',
  'toBoolean',
  'toBooleanList',
  'toBooleanOrNull',
  'toFloat',
  'toFloatList',
  'toFloatOrNull',
  'toInteger',
  'toIntegerList',
  'toIntegerOrNull',
  'toLower',
  'toString',
  'toStringList',
  'toStringOrNull',
  'toUpper',
  'stDev',
  'stDevP',
  'percentileCont',
  'percentileDisc',
  'datetime.fromEpoch',
  'datetime.fromEpochMillis',
  'duration.inDays',
  'duration.inMonths',
  'duration.inSeconds',
  'point.withinBBox',
];

const by_canonical: ReadonlyMap<string, string> = new Map(manual_names.map((n) => [n.toLowerCase(), n]));

/** How the manual spells the function Weft knows as `canonical`. */
export function manualName(canonical: string): string {
  return by_canonical.get(canonical) ?? canonical;
}
