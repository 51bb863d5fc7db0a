import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { PropertyValueSchema, type PropertyValue } from '../../src/gen/weft/v1/values_pb.js';

/** A wire property value as a plain JS value: its one set field's JSON, floats as numbers; absent stays undefined, an empty value is null. */
export function plainValue(v: PropertyValue | undefined): unknown {
  if (v === undefined) return undefined;
  const j = toJson(PropertyValueSchema, v) as JsonObject;
  const [k, x] = Object.entries(j)[0] ?? [];
  return k === undefined ? null : k === 'floatValue' ? Number(x) : x;
}
