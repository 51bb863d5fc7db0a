import { describe, expect, it } from 'vitest';
import { sendsBeforePersist } from '../../src/log/driver/send-order.js';
import type { Ready } from '../../src/log/raft/raw-node.js';
import type { Entry, HardState, Message } from '../../src/log/raft/types.js';

const persisted: HardState = { term: 3, vote: 1, commit: 10 };
const entry: Entry = { index: 11, term: 3, type: 'normal', data: new Uint8Array([1]) };
const append: Message = { type: 'app', from: 1, to: 2, term: 3, index: 10, log_term: 3, entries: [entry], commit: 10 };
const heartbeat: Message = { type: 'heartbeat', from: 1, to: 3, term: 3, commit: 10, request_ctx: '' };
const ack: Message = { type: 'app_resp', from: 2, to: 1, term: 3, index: 11, reject: false, reject_hint: 0, log_term: 3 };
const vote: Message = { type: 'vote', from: 1, to: 2, term: 4, index: 11, log_term: 3, force: false };

function ready(over: Partial<Ready>): Ready {
  return { entries: [entry], committed_entries: [], messages: [append], read_states: [], must_sync: true, ...over };
}

describe('which Readies may send before their fsync', () => {
  it('a leader replicating a new entry sends its appends and heartbeats at once', () => {
    expect(sendsBeforePersist('leader', ready({ messages: [append, heartbeat] }), persisted)).toBe(true);
  });

  it('a leader whose commit index alone moved still sends at once', () => {
    expect(sendsBeforePersist('leader', ready({ hard_state: { ...persisted, commit: 11 } }), persisted)).toBe(true);
  });

  it('a follower acknowledging entries waits for its fsync: the ack promises them durable', () => {
    expect(sendsBeforePersist('follower', ready({ messages: [ack] }), persisted)).toBe(false);
  });

  it('a candidate asking for votes waits until its new term and own vote are on disk', () => {
    const campaign = ready({ entries: [], hard_state: { term: 4, vote: 1, commit: 10 }, messages: [vote] });
    expect(sendsBeforePersist('candidate', campaign, persisted)).toBe(false);
    // Even were the role reported as leader, a changed term or vote keeps the persist-then-send order.
    expect(sendsBeforePersist('leader', campaign, persisted)).toBe(false);
  });

  it('a leader Ready carrying any response keeps the persist-then-send order', () => {
    expect(sendsBeforePersist('leader', ready({ messages: [append, ack] }), persisted)).toBe(false);
  });

  it('a lone voter that commits its new entry at once does not tell a learner before the entry is durable', () => {
    const to_learner: Message = { ...append, commit: 11 } as Message;
    expect(sendsBeforePersist('leader', ready({ messages: [to_learner], hard_state: { ...persisted, commit: 11 } }), persisted)).toBe(false);
  });

  it('a Ready without messages has nothing to send early', () => {
    expect(sendsBeforePersist('leader', ready({ messages: [] }), persisted)).toBe(false);
  });
});
