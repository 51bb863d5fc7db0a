/**
 * The REST route table, read from the `google.api.http` options of the service descriptors: one
 * route per binding (the main one and each additional binding). A method without the option has no
 * route. Path templates support literal segments, `{field}` and `{field=*}` variables (a field path
 * may be dotted into nested messages), and a trailing `:verb` on a literal last segment.
 */
import { getOption, hasOption, type DescField, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { assert } from '../common/assert.js';
import { http } from '../gen/google/api/annotations_pb.js';
import type { HttpRule } from '../gen/google/api/http_pb.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface PathParam {
  /** The name the fastify route uses (`p0`, `p1`, ...): field paths may hold dots, route params cannot. */
  readonly param: string;
  /** The request field the segment binds, outermost first. Invariant: the last is a singular scalar or enum. */
  readonly fields: readonly DescField[];
}

export interface RestRoute {
  readonly http_method: HttpMethod;
  /** As written in the option, e.g. "/v1/graph/nodes/{node_id}". */
  readonly template: string;
  /** In fastify's syntax, e.g. "/v1/graph/nodes/:p0"; a literal colon is doubled. */
  readonly fastify_path: string;
  readonly path_params: readonly PathParam[];
  /** "*" (every field not bound by the path), a top-level field name, or "" (no body). */
  readonly body: string;
  /** "" for the whole response, else the top-level response field sent as the body. */
  readonly response_body: string;
  readonly method: DescMethod;
}

/** Resolves `a.b.c` against a message, by proto field name. */
export function fieldPath(method: DescMethod, path: string, what: string): DescField[] {
  const fields: DescField[] = [];
  let message = method.input;
  const parts = path.split('.');
  for (const [i, part] of parts.entries()) {
    const field = message.fields.find((f) => f.name === part);
    assert(field !== undefined, `${method.parent.typeName}.${method.name}: ${what} names unknown field "${path}"`);
    fields.push(field);
    if (i < parts.length - 1) {
      assert(field.fieldKind === 'message', `${method.name}: ${what} "${path}" goes through a non-message field`);
      message = field.message;
    }
  }
  return fields;
}

function ruleBinding(rule: HttpRule): { http_method: HttpMethod; template: string } | undefined {
  switch (rule.pattern.case) {
    case 'get':
      return { http_method: 'GET', template: rule.pattern.value };
    case 'put':
      return { http_method: 'PUT', template: rule.pattern.value };
    case 'post':
      return { http_method: 'POST', template: rule.pattern.value };
    case 'delete':
      return { http_method: 'DELETE', template: rule.pattern.value };
    case 'patch':
      return { http_method: 'PATCH', template: rule.pattern.value };
    case 'custom':
      // Custom verbs (e.g. HEAD, OPTIONS) are not served; no Weft method uses one.
      return undefined;
    case undefined:
      return undefined;
  }
}

function compileTemplate(method: DescMethod, template: string): { fastify_path: string; path_params: PathParam[] } {
  assert(template.startsWith('/'), `${method.name}: path template "${template}" must start with "/"`);
  const path_params: PathParam[] = [];
  const segments = template.slice(1).split('/');
  const out = segments.map((segment, i) => {
    const variable = /^\{([a-z_][a-z0-9_.]*)(?:=\*)?\}$/.exec(segment);
    if (variable?.[1] !== undefined) {
      const fields = fieldPath(method, variable[1], 'path template');
      const last = fields[fields.length - 1];
      assert(
        last !== undefined && (last.fieldKind === 'scalar' || last.fieldKind === 'enum'),
        `${method.name}: path variable "${variable[1]}" must be a singular scalar or enum field`,
      );
      const param = `p${path_params.length}`;
      path_params.push({ param, fields });
      return `:${param}`;
    }
    assert(/^[A-Za-z0-9_.~-]+(?::[A-Za-z0-9_.~-]+)?$/.test(segment), `${method.name}: unsupported path segment "${segment}"`);
    assert(i === segments.length - 1 || !segment.includes(':'), `${method.name}: a ":verb" may only end the path`);
    return segment.replace(':', '::');
  });
  return { fastify_path: '/' + out.join('/'), path_params };
}

function routeOf(method: DescMethod, rule: HttpRule): RestRoute | undefined {
  const binding = ruleBinding(rule);
  if (binding === undefined) return undefined;
  const { fastify_path, path_params } = compileTemplate(method, binding.template);
  if (rule.body !== '' && rule.body !== '*') {
    const f = fieldPath(method, rule.body, 'body');
    assert(f.length === 1, `${method.name}: body must name a top-level field`);
  }
  if (rule.responseBody !== '') {
    assert(method.output.fields.some((f) => f.name === rule.responseBody), `${method.name}: unknown response_body`);
  }
  return { ...binding, fastify_path, path_params, body: rule.body, response_body: rule.responseBody, method };
}

/** Every route of the services, in descriptor order. Throws (a contract bug) on a template it cannot serve. */
export function restRoutes(services: readonly DescService[]): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      const rule = getOption(method, http);
      for (const r of [rule, ...rule.additionalBindings]) {
        const route = routeOf(method, r);
        if (route !== undefined) routes.push(route);
      }
    }
  }
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.http_method} ${r.fastify_path.replace(/:p\d+/g, ':p')}`;
    assert(!seen.has(key), `two methods bind ${key}`);
    seen.add(key);
  }
  return routes;
}

