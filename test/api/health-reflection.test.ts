import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { ServingStatus } from '../../src/api/grpc-health.js';
import { startGrpcServer, type GrpcServerHandle } from '../../src/api/grpc-server.js';
import { implement } from '../../src/api/handlers.js';
import { Health } from '../../src/gen/grpc/health/v1/health_pb.js';
import { ServerReflection, type ServerReflectionResponse } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { ServerReflection as ServerReflectionAlpha } from '../../src/gen/grpc/reflection/v1alpha/reflection_pb.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { SchemaService } from '../../src/gen/weft/v2/schema_pb.js';

describe('gRPC health and reflection', () => {
  let server: GrpcServerHandle;
  let address: string;
  beforeAll(async () => {
    server = await startGrpcServer({ port: 0, services: [implement(GraphService, {}), implement(SchemaService, {})], shutdown_grace_ms: 100 });
    address = `127.0.0.1:${server.port}`;
  });
  afterAll(() => server.stop());

  it('health: the server answers SERVING; an unknown service is NOT_FOUND', async () => {
    const health = createGrpcClient(Health, address);
    expect((await health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
    expect((await health.check({ service: 'weft.v2.SchemaService' })).status).toBe(ServingStatus.SERVING);
    await expect(health.check({ service: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    health.close();
  });

  it('health: Watch sends the status now, then each change the server sets', async () => {
    const health = createGrpcClient(Health, address);
    const controller = new AbortController();
    const seen: ServingStatus[] = [];
    const watching = (async () => {
      try {
        for await (const r of health.watch({ service: 'weft.v1.GraphService' }, { signal: controller.signal })) {
          seen.push(r.status);
          if (seen.length === 1) server.health.set('weft.v1.GraphService', ServingStatus.NOT_SERVING);
          if (seen.length === 2) controller.abort();
        }
      } catch (e) {
        expect(e).toMatchObject({ code: 'CANCELLED' });
      }
    })();
    await watching;
    expect(seen).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    expect((await health.check({ service: 'weft.v1.GraphService' })).status).toBe(ServingStatus.NOT_SERVING);
    health.close();
  });

  async function ask(req: Parameters<ReturnType<typeof createGrpcClient<typeof ServerReflection>>['serverReflectionInfo']>[0]): Promise<ServerReflectionResponse[]> {
    const client = createGrpcClient(ServerReflection, address);
    const out: ServerReflectionResponse[] = [];
    for await (const r of client.serverReflectionInfo(req)) out.push(r);
    client.close();
    return out;
  }

  it('reflection lists every service, its own and health included', async () => {
    const [answer] = await ask([{ messageRequest: { case: 'listServices', value: '' } }]);
    expect(answer?.messageResponse.case).toBe('listServicesResponse');
    const names = answer?.messageResponse.case === 'listServicesResponse' ? answer.messageResponse.value.service.map((s) => s.name) : [];
    expect(names).toEqual([
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
      'weft.v1.GraphService',
      'weft.v2.SchemaService',
    ]);
  });

  it('reflection serves a file by symbol and by name, with its dependencies, and answers several requests on one stream', async () => {
    const answers = await ask([
      { messageRequest: { case: 'fileContainingSymbol', value: 'weft.v1.GraphService' } },
      { messageRequest: { case: 'fileByFilename', value: 'weft/v2/schema.proto' } },
      { messageRequest: { case: 'fileContainingSymbol', value: 'weft.v1.PropertyValue' } },
      { messageRequest: { case: 'fileContainingSymbol', value: 'weft.v9.Nothing' } },
    ]);
    const files = (a: ServerReflectionResponse | undefined): string[] =>
      a?.messageResponse.case === 'fileDescriptorResponse'
        ? a.messageResponse.value.fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b).name ?? '')
        : [];
    const graph = files(answers[0]);
    expect(graph[0]).toBe('weft/v1/graph.proto');
    expect(graph).toEqual(expect.arrayContaining(['google/api/annotations.proto', 'google/api/http.proto', 'google/protobuf/descriptor.proto', 'weft/v1/values.proto', 'weft/v1/common.proto']));
    const schema = files(answers[1]);
    expect(schema[0]).toBe('weft/v2/schema.proto');
    expect(schema).toEqual(expect.arrayContaining(['google/protobuf/duration.proto', 'google/protobuf/empty.proto']));
    expect(files(answers[2])[0]).toBe('weft/v1/values.proto');
    expect(answers[3]?.messageResponse.case).toBe('errorResponse');
  });

  it('the served descriptor keeps the HTTP annotations a transcoding proxy needs', async () => {
    const [answer] = await ask([{ messageRequest: { case: 'fileContainingSymbol', value: 'weft.v1.GraphService.GetNode' } }]);
    const bytes = answer?.messageResponse.case === 'fileDescriptorResponse' ? answer.messageResponse.value.fileDescriptorProto[0] : undefined;
    expect(bytes).toBeDefined();
    const file = fromBinary(FileDescriptorProtoSchema, bytes ?? new Uint8Array());
    const getNode = file.service[0]?.method.find((m) => m.name === 'GetNode');
    expect(getNode?.options?.$unknown?.some((u) => u.no === 72295728)).toBe(true);
  });

  it('reflection v1alpha answers too, for older tools', async () => {
    const client = createGrpcClient(ServerReflectionAlpha, address);
    const out: string[] = [];
    for await (const r of client.serverReflectionInfo([{ messageRequest: { case: 'listServices', value: '*' } }])) {
      if (r.messageResponse.case === 'listServicesResponse') out.push(...r.messageResponse.value.service.map((s) => s.name));
    }
    client.close();
    expect(out).toContain('weft.v2.SchemaService');
  });
});
