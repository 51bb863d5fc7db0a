import type { CachedFormKind } from './scan-cache.js';

/**
 * Forms a write made stale for new readers, kept for readers pinned before the write. A form built at `from`
 * pictures the graph for every reader in [from, until), `until` being the index of the write that superseded
 * it: a transaction's snapshot or a sliced read pinned in that range reads the same typed arrays it read before
 * the write, rather than walking records. A form goes when no pinned reader is older than `until` (the store
 * sweeps at each write and when the host moves its horizon), or when the scan cache evicts it: it stays charged
 * to the budget until then, and the least recently used go first as for any form.
 */
export interface SupersededForm {
  readonly kind: CachedFormKind;
  /** The label, type, property key or `type\u0000key` the form was kept under. */
  readonly key: string;
  readonly from: number;
  readonly until: number;
  readonly form: object;
}

export class SupersededForms {
  private forms: SupersededForm[] = [];

  add(f: SupersededForm): void {
    this.forms.push(f);
  }

  /** The form of `kind` and `key` a reader at `readIndex` sees exactly, if one is kept. */
  find(kind: CachedFormKind, key: string, readIndex: number): object | undefined {
    for (const f of this.forms) if (f.kind === kind && f.key === key && f.from <= readIndex && readIndex < f.until) return f.form;
    return undefined;
  }

  /** Forgets `form` (the scan cache evicted it). */
  forget(form: object): void {
    if (this.forms.some((f) => f.form === form)) this.forms = this.forms.filter((f) => f.form !== form);
  }

  /**
   * Removes and returns the forms no reader can read any more: every one when nothing is pinned (`oldest`
   * undefined), else those superseded at or before the oldest pinned read index.
   */
  unreadable(oldest: number | undefined): readonly SupersededForm[] {
    const gone = this.forms.filter((f) => oldest === undefined || f.until <= oldest);
    if (gone.length > 0) this.forms = this.forms.filter((f) => !gone.includes(f));
    return gone;
  }

  get size(): number {
    return this.forms.length;
  }
}
