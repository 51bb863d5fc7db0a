import type { H2ClientSession, H2ClientSessionEvents, H2DialOptions, H2Listener, H2ListenOptions } from './h2-peer-interface.js';
import { dialH2 as dialNodeH2, listenH2 as listenNodeH2 } from './node-h2-peer-adapter.js';
import { dialWeftH2, listenWeftH2 } from './weft-h2-peer-adapter.js';

/**
 * Which HTTP/2 implementation carries the peer port (setting `peer_http2_engine`): Weft's own engine
 * (src/common/h2), the default, or node:http2, kept as the operator's fallback. Both speak the same
 * gRPC over mutual TLS, so members on different engines talk to each other.
 */
export type PeerHttp2Engine = 'weft' | 'node';

export const peer_http2_engines: readonly PeerHttp2Engine[] = ['weft', 'node'];
export const peer_http2_engine_default: PeerHttp2Engine = 'weft';

export interface PeerH2Engine {
  listen(options: H2ListenOptions): Promise<H2Listener>;
  dial(options: H2DialOptions, events: H2ClientSessionEvents): H2ClientSession;
}

const weft_engine: PeerH2Engine = { listen: listenWeftH2, dial: dialWeftH2 };
const node_engine: PeerH2Engine = { listen: listenNodeH2, dial: dialNodeH2 };

export function peerH2Engine(engine: PeerHttp2Engine): PeerH2Engine {
  switch (engine) {
    case 'weft':
      return weft_engine;
    case 'node':
      return node_engine;
  }
}
