/**
 * SETTINGS (RFC 9113 section 6.5): the identifiers, the protocol's defaults, the bounds each value
 * must respect, and applying a peer's SETTINGS frame to what we know of it.
 */
import { H2ConnectionError, h2_error } from './errors.js';
import { frame_payload_bytes_default, frame_payload_bytes_limit, window_bytes_default, window_bytes_limit } from './frame.js';

export const setting_id = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

/** What one side of a connection has announced (or the protocol's defaults until it does). */
export interface PeerSettings {
  readonly header_table_bytes: number;
  readonly enable_push: boolean;
  /** Unbounded until announced. */
  readonly concurrent_streams_max: number;
  readonly initial_window_bytes: number;
  readonly frame_bytes_max: number;
  readonly header_list_bytes_max: number;
}

export const default_settings: PeerSettings = {
  header_table_bytes: 4096,
  enable_push: true,
  concurrent_streams_max: Number.POSITIVE_INFINITY,
  initial_window_bytes: window_bytes_default,
  frame_bytes_max: frame_payload_bytes_default,
  header_list_bytes_max: Number.POSITIVE_INFINITY,
};

/** The peer's settings after one SETTINGS frame; a value out of its bounds is a connection error. */
export function applySettings(current: PeerSettings, entries: readonly { id: number; value: number }[], from_server: boolean): PeerSettings {
  let next = current;
  for (const { id, value } of entries) {
    switch (id) {
      case setting_id.HEADER_TABLE_SIZE:
        next = { ...next, header_table_bytes: value };
        break;
      case setting_id.ENABLE_PUSH:
        if (value > 1) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `SETTINGS_ENABLE_PUSH of ${value}`);
        // A server never asks for pushes (RFC 9113 section 6.5.2).
        if (from_server && value === 1) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, 'a server sent SETTINGS_ENABLE_PUSH = 1');
        next = { ...next, enable_push: value === 1 };
        break;
      case setting_id.MAX_CONCURRENT_STREAMS:
        next = { ...next, concurrent_streams_max: value };
        break;
      case setting_id.INITIAL_WINDOW_SIZE:
        if (value > window_bytes_limit) throw new H2ConnectionError(h2_error.FLOW_CONTROL_ERROR, `SETTINGS_INITIAL_WINDOW_SIZE of ${value}`);
        next = { ...next, initial_window_bytes: value };
        break;
      case setting_id.MAX_FRAME_SIZE:
        if (value < frame_payload_bytes_default || value > frame_payload_bytes_limit) {
          throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `SETTINGS_MAX_FRAME_SIZE of ${value}`);
        }
        next = { ...next, frame_bytes_max: value };
        break;
      case setting_id.MAX_HEADER_LIST_SIZE:
        next = { ...next, header_list_bytes_max: value };
        break;
      default:
        // Unknown settings are ignored (RFC 9113 section 6.5.2).
        break;
    }
  }
  return next;
}
