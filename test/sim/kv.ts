/** The simulated application: a key-value map replicated through the log. */

export interface PutCommand {
  /** Unique per client operation, so a reply can be matched to the entry that carried it. */
  readonly op: number;
  readonly key: string;
  readonly value: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodePut(c: PutCommand): Uint8Array {
  return encoder.encode(JSON.stringify(c));
}

/** undefined for the leader's empty no-op entry. */
export function decodePut(data: Uint8Array): PutCommand | undefined {
  if (data.byteLength === 0) return undefined;
  return JSON.parse(decoder.decode(data)) as PutCommand;
}

export function encodeKv(kv: ReadonlyMap<string, string>): Uint8Array {
  return encoder.encode(JSON.stringify([...kv]));
}

export function decodeKv(data: Uint8Array): Map<string, string> {
  if (data.byteLength === 0) return new Map();
  return new Map(JSON.parse(decoder.decode(data)) as [string, string][]);
}
