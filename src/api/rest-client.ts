/**
 * A small REST client over the same descriptors, for tests and tools: it builds the URL and body of
 * a method's HTTP binding from a request message, and reads the answer back into a message or
 * a WeftError. It uses the route table the server uses, so the two cannot drift apart.
 */
import { create, fromJson, toJson, type DescMethod, type JsonObject, type JsonValue, type Message } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import { errorFromJson } from './error-catalog.js';
import { restRoutes, type RestRoute } from './rest-routes.js';

export interface RestCallOptions {
  /** Sent as x-weft-timeout-ms. */
  readonly timeout_ms?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

function hasAt(obj: JsonObject, keys: readonly string[]): boolean {
  let at: JsonValue | undefined = obj;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return false;
    at = at[key];
  }
  return at !== undefined;
}

/** The first binding whose path variables the request sets (GetNode by element_id takes the elements route). */
function routeFor(method: DescMethod, json: JsonObject): RestRoute {
  const routes = restRoutes([method.parent]).filter((r) => r.method === method);
  const route = routes.find((r) => r.path_params.every((p) => hasAt(json, p.fields.map((f) => f.jsonName)))) ?? routes[0];
  if (route === undefined) throw new WeftError('UNIMPLEMENTED', `${method.name} has no REST binding`);
  return route;
}

function takeAt(obj: JsonObject, keys: readonly string[]): JsonValue | undefined {
  let at: JsonValue | undefined = obj;
  for (const [i, key] of keys.entries()) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    if (i === keys.length - 1) {
      const v: JsonValue | undefined = at[key];
      delete at[key];
      return v;
    }
    at = at[key];
  }
  return undefined;
}

function flattenQuery(prefix: string, v: JsonValue, out: URLSearchParams): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (typeof item === 'object' && item !== null) throw new WeftError('INVALID_ARGUMENT', `${prefix}: a repeated message cannot go in a query`);
      out.append(prefix, String(item));
    }
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, inner] of Object.entries(v)) flattenQuery(prefix === '' ? k : `${prefix}.${k}`, inner, out);
  } else {
    out.append(prefix, String(v));
  }
}

/** The HTTP request of a call: method, path with query, and body text (undefined for none). */
export function restRequestOf(method: DescMethod, request: Message): { http_method: string; path: string; body: string | undefined } {
  const json = toJson(method.input, request) as JsonObject;
  const route = routeFor(method, json);
  let path = route.template;
  for (const p of route.path_params) {
    const v = takeAt(json, p.fields.map((f) => f.jsonName));
    const name = p.fields.map((f) => f.name).join('.');
    path = path.replace(new RegExp(`\\{${name.replace(/\./g, '\\.')}(=\\*)?\\}`), encodeURIComponent(v === undefined || v === null ? '' : String(v)));
  }
  if (route.body === '*') return { http_method: route.http_method, path, body: JSON.stringify(json) };
  let body: string | undefined;
  if (route.body !== '') {
    const field = method.input.fields.find((f) => f.name === route.body);
    if (field !== undefined) body = JSON.stringify(takeAt(json, [field.jsonName]) ?? {});
  }
  const query = new URLSearchParams();
  flattenQuery('', json, query);
  const qs = query.toString();
  return { http_method: route.http_method, path: qs === '' ? path : `${path}?${qs}`, body };
}

async function send(baseUrl: string, method: DescMethod, request: unknown, o: RestCallOptions): Promise<Response> {
  const r = restRequestOf(method, create(method.input, request as Record<string, unknown>));
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  if (o.timeout_ms !== undefined) headers['x-weft-timeout-ms'] = String(o.timeout_ms);
  return fetch(baseUrl + r.path, {
    method: r.http_method,
    headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
    ...(o.signal !== undefined ? { signal: o.signal } : {}),
  });
}

async function failure(res: Response): Promise<WeftError> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return errorFromJson(body, res.status);
}

/** A unary call over REST: the decoded response, or the WeftError the server answered. */
export async function restCall(baseUrl: string, method: DescMethod, request: unknown, o: RestCallOptions = {}): Promise<Message> {
  const res = await send(baseUrl, method, request, o);
  if (!res.ok) throw await failure(res);
  return fromJson(method.output, (await res.json()) as JsonValue);
}

/**
 * A server-streaming call over REST, read whole: every message, in order. An error line ends the
 * stream and is thrown after the messages before it were read (they are in `error.received`).
 */
export async function restStreamCall(baseUrl: string, method: DescMethod, request: unknown, o: RestCallOptions = {}): Promise<Message[]> {
  const res = await send(baseUrl, method, request, o);
  if (!res.ok) throw await failure(res);
  const out: Message[] = [];
  for (const line of (await res.text()).split('\n')) {
    if (line.trim() === '') continue;
    const json = JSON.parse(line) as JsonObject;
    if (json['error'] !== undefined) throw Object.assign(errorFromJson(json['error'], 200), { received: out });
    out.push(fromJson(method.output, json));
  }
  return out;
}
