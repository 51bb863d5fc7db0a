/**
 * Zone offsets and IANA zone rules. Offsets are whole seconds east of UTC (ISO 8601 allows seconds,
 * and historic local mean times need them: Stockholm was +00:53:28 before 1879). Named zones are
 * resolved with the ICU data Node ships (`Intl.DateTimeFormat` with `timeZone`), so no zone database
 * is bundled here.
 */

/** ISO 8601 / java.time bound on an offset: +-18:00. */
export const OFFSET_SECONDS_MAX = 18 * 3600;

const MS_MAX = 8.64e15; // the range of a JavaScript Date

/** Parses `Z`, `+HH`, `+HHMM`, `+HH:MM`, `+HHMMSS`, `+HH:MM:SS` (and `-`). Undefined when malformed. */
export function parseOffset(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  const m = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?$/.exec(text);
  if (m === null) return undefined;
  const h = Number(m[2]);
  const min = m[3] === undefined ? 0 : Number(m[3]);
  const s = m[4] === undefined ? 0 : Number(m[4]);
  if (min > 59 || s > 59) return undefined;
  const total = h * 3600 + min * 60 + s;
  if (total > OFFSET_SECONDS_MAX) return undefined;
  return m[1] === '-' ? -total : total;
}

/** `Z` for zero, else `+HH:MM`, with `:SS` only when the seconds are not zero (java.time ZoneOffset style). */
export function formatOffset(offsetSeconds: number): string {
  if (offsetSeconds === 0) return 'Z';
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const base = `${sign}${pad2(h)}:${pad2(m)}`;
  return s === 0 ? base : `${base}:${pad2(s)}`;
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * Zones IANA renamed, each former name beside the current one (tzdb's `backward` file). Both names are
 * zones here, printed as written and, as in Neo4j, two zone ids: a datetime in one is not equal to
 * the same instant in the other (Neo4j's zone table keeps every name it ever listed apart and maps
 * only names tzdb deleted). ICU may know just one of a pair (an ICU older than the rename lacks the new
 * name) and canonicalises some new names to the old (`Asia/Kolkata` to `Asia/Calcutta`), so the
 * offsets of a name it lacks are those of the other.
 */
const zone_renames: readonly (readonly [former: string, current: string])[] = [
  ['Africa/Asmera', 'Africa/Asmara'],
  ['America/Argentina/ComodRivadavia', 'America/Argentina/Catamarca'],
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['America/Catamarca', 'America/Argentina/Catamarca'],
  ['America/Coral_Harbour', 'America/Atikokan'],
  ['America/Cordoba', 'America/Argentina/Cordoba'],
  ['America/Fort_Wayne', 'America/Indiana/Indianapolis'],
  ['America/Godthab', 'America/Nuuk'],
  ['America/Indianapolis', 'America/Indiana/Indianapolis'],
  ['America/Jujuy', 'America/Argentina/Jujuy'],
  ['America/Knox_IN', 'America/Indiana/Knox'],
  ['America/Louisville', 'America/Kentucky/Louisville'],
  ['America/Mendoza', 'America/Argentina/Mendoza'],
  ['America/Porto_Acre', 'America/Rio_Branco'],
  ['Asia/Ashkhabad', 'Asia/Ashgabat'],
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['Asia/Chungking', 'Asia/Chongqing'],
  ['Asia/Dacca', 'Asia/Dhaka'],
  ['Asia/Istanbul', 'Europe/Istanbul'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Asia/Macao', 'Asia/Macau'],
  ['Asia/Rangoon', 'Asia/Yangon'],
  ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ['Asia/Tel_Aviv', 'Asia/Jerusalem'],
  ['Asia/Thimbu', 'Asia/Thimphu'],
  ['Asia/Ujung_Pandang', 'Asia/Makassar'],
  ['Asia/Ulan_Bator', 'Asia/Ulaanbaatar'],
  ['Atlantic/Faeroe', 'Atlantic/Faroe'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['Pacific/Enderbury', 'Pacific/Kanton'],
  ['Pacific/Ponape', 'Pacific/Pohnpei'],
  ['Pacific/Truk', 'Pacific/Chuuk'],
  ['Pacific/Yap', 'Pacific/Chuuk'],
];

/**
 * The other names tzdb keeps for compatibility (links such as `US/Pacific`). ICU knows them but lists
 * only canonical names, so this is where their spelling is found (`us/pacific` is `US/Pacific`).
 */
const zone_links: readonly string[] = [
  'Australia/ACT', 'Australia/Canberra', 'Australia/LHI', 'Australia/NSW', 'Australia/North', 'Australia/Queensland',
  'Australia/South', 'Australia/Tasmania', 'Australia/Victoria', 'Australia/West', 'Australia/Yancowinna',
  'Brazil/Acre', 'Brazil/DeNoronha', 'Brazil/East', 'Brazil/West',
  'Canada/Atlantic', 'Canada/Central', 'Canada/Eastern', 'Canada/Mountain', 'Canada/Newfoundland', 'Canada/Pacific',
  'Canada/Saskatchewan', 'Canada/Yukon', 'Chile/Continental', 'Chile/EasterIsland',
  'Cuba', 'Egypt', 'Eire', 'Etc/GMT', 'Etc/Greenwich', 'Etc/UCT', 'Etc/UTC', 'Etc/Universal', 'Etc/Zulu',
  'GB', 'GB-Eire', 'GMT', 'GMT0', 'Greenwich', 'Hongkong', 'Iceland', 'Iran', 'Israel', 'Jamaica', 'Japan', 'Kwajalein', 'Libya',
  'Mexico/BajaNorte', 'Mexico/BajaSur', 'Mexico/General', 'NZ', 'NZ-CHAT', 'Navajo', 'PRC', 'Poland', 'Portugal', 'ROC', 'ROK',
  'Singapore', 'Turkey', 'UCT', 'US/Alaska', 'US/Aleutian', 'US/Arizona', 'US/Central', 'US/East-Indiana', 'US/Eastern',
  'US/Hawaii', 'US/Indiana-Starke', 'US/Michigan', 'US/Mountain', 'US/Pacific', 'US/Samoa', 'UTC', 'Universal', 'W-SU', 'Zulu',
];

/** The names `name` may borrow its rules from when ICU does not know it: the other names of a renamed zone. */
function otherNames(name: string): string[] {
  const out: string[] = [];
  for (const [former, current] of zone_renames) {
    if (former === name) out.push(current);
    else if (current === name) out.push(former);
  }
  return out;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function icuFormatter(zone: string): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset', year: 'numeric' });
  } catch {
    return null;
  }
}

/**
 * The name to ask the zone data for `name`'s rules: `name` itself when `knows` it, else another name
 * of the same zone that it knows (`zone_renames`); undefined when there is none.
 */
export function rulesName(name: string, knows: (zone: string) => boolean): string | undefined {
  if (knows(name)) return name;
  const spelled = spelling().get(name.toLowerCase());
  return spelled === undefined ? undefined : otherNames(spelled).find(knows);
}

/** ICU's formatter for `zone`, or for another name of it when ICU lacks this one (`rulesName`). */
function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    const name = rulesName(zone, (z) => icuFormatter(z) !== null);
    f = name === undefined ? null : icuFormatter(name);
    formatters.set(zone, f);
  }
  return f;
}

let spellings: Map<string, string> | undefined;

/** Every zone name this runtime may use, by its lower-case form: ICU's canonical names, the renamed and the links. */
function spelling(): Map<string, string> {
  if (spellings === undefined) {
    spellings = new Map();
    const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    for (const name of [...listed, ...zone_renames.flat(), ...zone_links]) spellings.set(name.toLowerCase(), name);
  }
  return spellings;
}

/**
 * True when `name` is an IANA zone the runtime knows, or another name of one (`zone_renames`). Offsets
 * written as zone names (`+01:00`) are not zones here; callers try `parseOffset` first.
 */
export function isKnownZone(name: string): boolean {
  return /^[A-Za-z]/.test(name) && formatterFor(name) !== null;
}

/** A zone name as written by a user: spaces stand for the underscores of IANA names (`America/Los Angeles`). */
export function zoneNameOf(text: string): string {
  return text.replace(/ /g, '_');
}

/**
 * The spelling of a known zone as tzdb writes it, whatever the case it was given in (`europe/stockholm`
 * is `Europe/Stockholm`, `asia/kolkata` is `Asia/Kolkata`): the name given, not the one ICU would put
 * for it (ICU turns `Asia/Kolkata` into `Asia/Calcutta` and `US/Pacific` into `America/Los_Angeles`).
 */
export function canonicalZone(name: string): string {
  const spelled = spelling().get(name.toLowerCase());
  if (spelled !== undefined) return spelled;
  const f = formatterFor(name);
  if (f === null) return name;
  const resolved = f.resolvedOptions().timeZone;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** Offset of `zone` at an instant given in epoch milliseconds, straight from ICU, uncached. The zone must be known. */
export function icuOffsetAtMillis(zone: string, epochMillis: number): number {
  const f = formatterFor(zone);
  if (f === null) throw new Error(`unknown time zone ${zone}`);
  const ms = Math.max(-MS_MAX, Math.min(MS_MAX, epochMillis));
  const parts = f.formatToParts(ms);
  for (const p of parts) {
    if (p.type === 'timeZoneName') return parseGmtOffset(p.value);
  }
  return 0;
}

function parseGmtOffset(text: string): number {
  // `GMT`, `GMT+01:00`, `GMT-09:30`, `GMT+00:53:28`
  if (text === 'GMT' || text === 'UTC') return 0;
  const off = parseOffset(text.slice(3));
  return off ?? 0;
}

/**
 * Asking ICU costs microseconds, so offsets are remembered per zone in windows of `WINDOW_SECONDS`:
 * each window records its offset at the start and, when the offset at its end differs, the second
 * of the one transition inside it (found by bisection). Zone rules never change twice within eight
 * days, which is what makes one transition per window enough.
 */
const WINDOW_SECONDS = 8 * 86_400;
/** Bound on remembered windows per zone (about 8 KB of entries per 100 years each). */
const WINDOWS_PER_ZONE_MAX = 65_536;

interface Window {
  readonly before: number;
  /** First second at which `after` applies; Infinity when the window has no transition. */
  readonly at: number;
  readonly after: number;
}

const windows = new Map<string, Map<number, Window>>();

function windowOf(zone: string, index: number): Window {
  let byIndex = windows.get(zone);
  if (byIndex === undefined) {
    byIndex = new Map();
    windows.set(zone, byIndex);
  }
  let w = byIndex.get(index);
  if (w !== undefined) return w;
  const start = index * WINDOW_SECONDS;
  const end = start + WINDOW_SECONDS;
  const before = icuOffsetAtMillis(zone, start * 1000);
  const after = icuOffsetAtMillis(zone, end * 1000);
  if (before === after) {
    w = { before, at: Infinity, after };
  } else {
    // Invariant: the offset at lo is `before`, at hi it is `after`.
    let lo = start;
    let hi = end;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (icuOffsetAtMillis(zone, mid * 1000) === before) lo = mid;
      else hi = mid;
    }
    w = { before, at: hi, after };
  }
  if (byIndex.size >= WINDOWS_PER_ZONE_MAX) byIndex.clear();
  byIndex.set(index, w);
  return w;
}

/** Offset of `zone` at the instant `epochSecond` (UTC). The zone must be known. */
export function zoneOffsetAt(zone: string, epochSecond: number): number {
  const s = Math.floor(epochSecond);
  const w = windowOf(zone, Math.floor(s / WINDOW_SECONDS));
  return s < w.at ? w.before : w.after;
}

/** Offset of `zone` at an instant given in epoch milliseconds. */
export function zoneOffsetAtMillis(zone: string, epochMillis: number): number {
  return zoneOffsetAt(zone, Math.floor(epochMillis / 1000));
}

/**
 * Resolves a local date-time (seconds since 1970-01-01T00:00 on the local clock) in `zone` to an
 * offset, the way java.time's ZonedDateTime.ofLocal does: in an overlap the earlier offset wins; in a
 * gap the local time moves later by the length of the gap. Returns the offset to use and how many
 * seconds the local time moved (0 outside a gap).
 */
export function resolveLocal(zone: string, localSecond: number): { offset: number; shift: number } {
  const before = zoneOffsetAt(zone, localSecond - 86_400);
  const after = zoneOffsetAt(zone, localSecond + 86_400);
  if (before === after) {
    const o = zoneOffsetAt(zone, localSecond - before);
    if (zoneOffsetAt(zone, localSecond - o) === o) return { offset: o, shift: 0 };
    return { offset: before, shift: 0 };
  }
  const okBefore = zoneOffsetAt(zone, localSecond - before) === before;
  const okAfter = zoneOffsetAt(zone, localSecond - after) === after;
  if (okBefore) return { offset: before, shift: 0 };
  if (okAfter) return { offset: after, shift: 0 };
  // A gap: keep the instant the earlier offset gives, shown with the later offset.
  return { offset: after, shift: after - before };
}
