/**
 * The scan cache: every form built for scanning (kept label lists and their columns, CSRs, columns and
 * bitmaps by id) and every form derived from one (typed columns, dictionaries, columns in adjacency order,
 * per-value tables, statistics, degree summaries) is charged to one budget (`scan_cache_mb`), with its bytes
 * counted when it is built. When a new form needs room, the forms least recently used are dropped until it
 * fits; a dropped form is built again on the next demand for it.
 *
 * A form the store keeps is a `CachedForm`: its owner (the store) says how to drop it, and `use` marks it
 * used each time a reader gets it. A derived form is kept by the query engine beside the form it came from (a
 * WeakMap keyed by it) and charged to that form's entry with `chargeDerived`, so it lives, is counted and is
 * dropped with it: evicting a CSR releases the columns gathered through it, and a write that drops a column
 * releases its typed form and its per-value tables.
 */

/** Bytes one slot of a kept list or column costs: a pointer. */
export const SLOT_BYTES = 8;

/** What kinds of forms the cache holds; `kept_bytes` reports bytes by kind. */
export type CachedFormKind = 'label list' | 'csr' | 'node column' | 'edge column' | 'label bitmap';

/** One form the store keeps, with the forms derived from it. */
export class CachedForm {
  /** The form's own bytes and those of every form charged to it since. */
  bytes: number;
  /** The cache's clock when a reader last got the form: the least recent goes first. */
  last_used: number;
  /** Whether the form is still in its cache (false once dropped or evicted). */
  live = true;
  /** Bytes by kind of derived form charged to this one (the measurement in docs/query-engine.md reads them). */
  readonly derived = new Map<string, { count: number; bytes: number }>();

  constructor(
    readonly kind: CachedFormKind,
    bytes: number,
    now: number,
    /** Removes the form from its owner's maps; the cache has already released its bytes. */
    readonly evict: () => void,
  ) {
    this.bytes = bytes;
    this.last_used = now;
  }
}

/** Per object a reader holds (a column, a CSR, a list's nodes), the entry its derived forms are charged to. */
const formOf = new WeakMap<object, { readonly cache: ScanCache; readonly form: CachedForm }>();

/**
 * The budget of the forms built for scanning and derived from them. Invariant: `used` is the sum of the
 * bytes of the live forms in `forms`, and at most `limit_bytes` (a limit sized by the graph only grows).
 */
export class ScanCache {
  used = 0;
  /** Forms dropped to make room since the cache was made. */
  evictions = 0;
  private clock = 0;
  private readonly forms = new Set<CachedForm>();
  /** The limit the host set (`scan_cache_mb`); undefined: sized by the graph (`auto`). */
  private fixed: number | undefined;

  /** `auto` is the limit by the graph's size, read at each admission so the cache grows with the graph. */
  constructor(private readonly auto: () => number) {}

  get limit_bytes(): number {
    return this.fixed ?? this.auto();
  }

  /** Sets the limit, or (undefined) sizes the cache by the graph; forms least recently used go until it is met. */
  set limit_bytes(bytes: number | undefined) {
    this.fixed = bytes;
    this.makeRoom(0, undefined);
  }

  /**
   * Keeps a form of `bytes` that readers reach through `holds` (each object a reader may key derived forms
   * by), evicting the least recently used forms if it must; undefined when the form does not fit even in an
   * empty cache (the caller then does without it).
   */
  admit(kind: CachedFormKind, bytes: number, holds: readonly object[], evict: () => void): CachedForm | undefined {
    if (!this.makeRoom(bytes, undefined)) return undefined;
    const form = new CachedForm(kind, bytes, ++this.clock, evict);
    this.forms.add(form);
    this.used += bytes;
    for (const o of holds) formOf.set(o, { cache: this, form });
    return form;
  }

  /** Whether a form of `bytes` would fit once every other form were evicted: a build too large is not begun. */
  fits(bytes: number): boolean {
    return bytes <= this.limit_bytes;
  }

  /** Marks `form` used now. */
  use(form: CachedForm): void {
    form.last_used = ++this.clock;
  }

  /** Charges `bytes` more to `form` (a form derived from it), evicting others if it must; false when they do not fit. */
  grow(form: CachedForm, bytes: number, kind: string): boolean {
    if (!form.live || !this.makeRoom(bytes, form)) return false;
    form.bytes += bytes;
    this.used += bytes;
    const k = form.derived.get(kind);
    if (k === undefined) form.derived.set(kind, { count: 1, bytes });
    else {
      k.count++;
      k.bytes += bytes;
    }
    return true;
  }

  /** Releases `form`: its owner dropped it (a write made it stale). Dropping twice is harmless. */
  release(form: CachedForm | undefined): void {
    if (form === undefined || !form.live) return;
    form.live = false;
    this.forms.delete(form);
    this.used -= form.bytes;
  }

  /** The live forms, for measurement and tests. */
  kept(): readonly CachedForm[] {
    return [...this.forms];
  }

  /**
   * Evicts least recently used forms other than `keep` until `bytes` more fit; false when they cannot. Eviction
   * is rare (a full cache and a new form), so a pass over the forms for the oldest costs nothing that matters.
   */
  private makeRoom(bytes: number, keep: CachedForm | undefined): boolean {
    const others = keep === undefined ? 0 : keep.bytes;
    if (bytes + others > this.limit_bytes) return false;
    while (this.used + bytes > this.limit_bytes) {
      let oldest: CachedForm | undefined;
      for (const f of this.forms) if (f !== keep && (oldest === undefined || f.last_used < oldest.last_used)) oldest = f;
      if (oldest === undefined) return false;
      this.release(oldest);
      this.evictions++;
      oldest.evict();
    }
    return true;
  }
}

/**
 * Charges a form derived from `parent` (a form the store keeps, or one already charged to it) to the parent's
 * entry, and lets forms derived from `child` find the same entry. True when it is charged (the caller keeps
 * it); false when the parent is not a kept form or is no longer live, or the bytes do not fit: the caller then
 * uses the form for this run and keeps nothing.
 */
export function chargeDerived(parent: object, child: object, bytes: number, kind: string): boolean {
  const entry = formOf.get(parent);
  if (entry === undefined || !entry.cache.grow(entry.form, bytes, kind)) return false;
  formOf.set(child, entry);
  return true;
}

/**
 * Whether a form derived from `parent` may be kept beside it (in a WeakMap keyed by it): when `parent` is a kept
 * form (or derived from one), the child is charged to its entry as `chargeDerived` does, and refused when the
 * entry is gone or has no room; a parent that is no form of any cache (a test's own array) keeps it, since the
 * child then lives exactly as long as that parent.
 */
export function keepDerived(parent: object, child: object, bytes: number, kind: string): boolean {
  return formOf.has(parent) ? chargeDerived(parent, child, bytes, kind) : true;
}

/** Gives back `bytes` charged to `parent`'s entry for a derived form its owner replaced (a table made again for other inputs). */
export function dischargeDerived(parent: object, bytes: number): void {
  const entry = formOf.get(parent);
  if (entry === undefined || !entry.form.live) return;
  entry.form.bytes -= bytes;
  entry.cache.used -= bytes;
}

/** Whether `o` is (or is derived from) a form still kept: a derived form keyed by a dropped one is not reused. */
export function keptForm(o: object): boolean {
  return formOf.get(o)?.form.live === true;
}
