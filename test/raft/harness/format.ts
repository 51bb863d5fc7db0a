import { decodeConfChange } from '../../../src/log/raft/index.js';
import type { Entry, Message, Ready } from '../../../src/log/raft/index.js';

const text = new TextDecoder();

/** `term/index kind "payload"`: conf changes decoded, application payloads shown as text. */
export function formatEntry(e: Entry): string {
  if (e.type === 'conf_change') {
    const cc = decodeConfChange(e.data);
    return `${e.term}/${e.index} ${cc.kind}(${cc.node})`;
  }
  return `${e.term}/${e.index} ${JSON.stringify(text.decode(e.data))}`;
}

export function formatEntries(es: readonly Entry[]): string {
  return es.map(formatEntry).join(', ');
}

export function formatMessage(m: Message): string {
  const head = `${m.from}->${m.to} ${m.type} term=${m.term}`;
  switch (m.type) {
    case 'app':
      return `${head} index=${m.index} log_term=${m.log_term} commit=${m.commit} entries=[${formatEntries(m.entries)}]${m.quiet === true ? ' quiet' : ''}`;
    case 'app_resp':
      return m.reject ? `${head} index=${m.index} reject hint=${m.reject_hint}/${m.log_term}` : `${head} index=${m.index}`;
    case 'vote':
    case 'pre_vote':
      return `${head} last=${m.log_term}/${m.index}${m.force ? ' force' : ''}`;
    case 'vote_resp':
    case 'pre_vote_resp':
      return `${head}${m.reject ? ' reject' : ''}`;
    case 'snap':
      return `${head} snapshot=${m.snapshot.meta.term}/${m.snapshot.meta.index} voters=${m.snapshot.meta.conf_state.voters.join(',')} learners=${m.snapshot.meta.conf_state.learners.join(',')}`;
    case 'heartbeat':
      return `${head} commit=${m.commit}${m.request_ctx ? ` ctx=${m.request_ctx}` : ''}`;
    case 'heartbeat_resp':
      return `${head}${m.request_ctx ? ` ctx=${m.request_ctx}` : ''}`;
    case 'timeout_now':
      return head;
  }
}

/** A Ready, one fact per line, indented under its member. */
export function formatReady(id: number, rd: Ready): string[] {
  const out = [`Ready ${id}:`];
  if (rd.soft_state) out.push(`  soft: ${rd.soft_state.role} lead=${rd.soft_state.lead}`);
  if (rd.hard_state) out.push(`  hard: term=${rd.hard_state.term} vote=${rd.hard_state.vote} commit=${rd.hard_state.commit}`);
  if (rd.snapshot) out.push(`  snapshot: ${rd.snapshot.meta.term}/${rd.snapshot.meta.index}`);
  if (rd.entries.length > 0) out.push(`  entries: ${formatEntries(rd.entries)}`);
  if (rd.committed_entries.length > 0) out.push(`  committed: ${formatEntries(rd.committed_entries)}`);
  for (const rs of rd.read_states) out.push(`  read: ctx=${rs.request_ctx} index=${rs.index}`);
  for (const m of rd.messages) out.push(`  send: ${formatMessage(m)}`);
  if (rd.must_sync) out.push('  must_sync');
  return out;
}
