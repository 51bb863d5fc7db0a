import type { Entry as RaftEntry } from '../raft/types.js';
import type { Entry } from '../events.js';
import { toEvent } from './entry-map.js';

/**
 * The entries this leader proposed and has not applied yet, as it proposed them. When they commit,
 * the apply target gets these objects rather than a decoding of their bytes: a leader decoding its
 * own million-op write again costs as much as encoding it did, for an event it already holds.
 * An entry is taken only when the committed one has its index and term (Raft's log matching: then it
 * is the same entry); anything else is decoded as before.
 */
export class ProposedEntries {
  /** Invariant: every key is above the driver's applied index, and maps to an entry of that index. */
  private readonly byIndex = new Map<number, Entry>();

  remember(entry: Entry): void {
    this.byIndex.set(entry.index, entry);
  }

  /** The events of committed `entries`, the remembered ones taken out; `prev_ts` as for toEvents. */
  take(entries: readonly RaftEntry[], prev_ts: number): Entry[] {
    const out: Entry[] = [];
    let ts = prev_ts;
    for (const e of entries) {
      const kept = this.byIndex.get(e.index);
      if (kept !== undefined) this.byIndex.delete(e.index);
      const mapped = kept !== undefined && kept.term === e.term && e.type === 'normal' ? kept : toEvent(e, ts);
      out.push(mapped);
      ts = mapped.commit_ts;
    }
    return out;
  }

  /** Leadership lost: what was proposed may be replaced; committed entries are decoded from then on. */
  forget(): void {
    this.byIndex.clear();
  }
}
