/**
 * gRPC server reflection (grpc.reflection.v1, and v1alpha for older tools): lists the services and
 * serves the FileDescriptorProtos they are defined by, taken from the generated descriptors, each
 * answer carrying the asked file and its dependencies.
 */
import { create, fromBinary, toBinary, type DescFile, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import {
  ServerReflection,
  ServerReflectionRequestSchema,
  type ServerReflectionRequest,
  ServerReflectionResponseSchema,
} from '../gen/grpc/reflection/v1/reflection_pb.js';
import {
  ServerReflection as ServerReflectionAlpha,
  ServerReflectionResponseSchema as ServerReflectionResponseAlphaSchema,
} from '../gen/grpc/reflection/v1alpha/reflection_pb.js';
import { grpc_codes } from './error-catalog.js';
import { implement, type RegisteredService } from './handlers.js';

type ResponseInit = MessageInitShape<typeof ServerReflectionResponseSchema>;
type OneofAnswer = NonNullable<ResponseInit['messageResponse']>;

/** What reflection knows: files by name, the file of each symbol, extensions by extendee. */
export class DescriptorIndex {
  readonly service_names: readonly string[];
  private readonly files = new Map<string, DescFile>();
  private readonly symbols = new Map<string, DescFile>();
  private readonly extensions = new Map<string, Map<number, DescFile>>();

  constructor(services: readonly { readonly typeName: string; readonly file: DescFile }[]) {
    this.service_names = services.map((s) => s.typeName).sort();
    for (const s of services) this.addFile(s.file);
  }

  private addFile(file: DescFile): void {
    const name = file.proto.name;
    if (this.files.has(name)) return;
    this.files.set(name, file);
    for (const dep of file.dependencies) this.addFile(dep);
    for (const service of file.services) {
      this.symbols.set(service.typeName, file);
      for (const method of service.methods) this.symbols.set(`${service.typeName}.${method.name}`, file);
    }
    for (const e of file.enums) this.symbols.set(e.typeName, file);
    for (const ext of file.extensions) this.addExtension(ext.extendee.typeName, ext.number, ext.typeName, file);
    for (const m of file.messages) this.addMessage(m, file);
  }

  private addMessage(m: DescMessage, file: DescFile): void {
    this.symbols.set(m.typeName, file);
    for (const e of m.nestedEnums) this.symbols.set(e.typeName, file);
    for (const n of m.nestedMessages) this.addMessage(n, file);
    for (const ext of m.nestedExtensions) this.addExtension(ext.extendee.typeName, ext.number, ext.typeName, file);
  }

  private addExtension(extendee: string, number: number, typeName: string, file: DescFile): void {
    this.symbols.set(typeName, file);
    let byNumber = this.extensions.get(extendee);
    if (byNumber === undefined) this.extensions.set(extendee, (byNumber = new Map()));
    byNumber.set(number, file);
  }

  fileByName(name: string): DescFile | undefined {
    return this.files.get(name);
  }

  fileBySymbol(symbol: string): DescFile | undefined {
    return this.symbols.get(symbol.startsWith('.') ? symbol.slice(1) : symbol);
  }

  fileByExtension(extendee: string, number: number): DescFile | undefined {
    return this.extensions.get(extendee)?.get(number);
  }

  extensionNumbers(extendee: string): number[] | undefined {
    const byNumber = this.extensions.get(extendee);
    return byNumber === undefined ? undefined : [...byNumber.keys()].sort((a, b) => a - b);
  }

  /** The file then its transitive dependencies, each once, serialized. */
  serializedWithDependencies(file: DescFile): Uint8Array[] {
    const seen = new Set<string>();
    const out: Uint8Array[] = [];
    const visit = (f: DescFile): void => {
      if (seen.has(f.proto.name)) return;
      seen.add(f.proto.name);
      out.push(toBinary(FileDescriptorProtoSchema, f.proto));
      for (const dep of f.dependencies) visit(dep);
    };
    visit(file);
    return out;
  }
}

function notFound(message: string): OneofAnswer {
  return { case: 'errorResponse', value: { errorCode: grpc_codes.NOT_FOUND, errorMessage: message } };
}

export function answerReflection(index: DescriptorIndex, req: ServerReflectionRequest): ResponseInit {
  const files = (file: DescFile | undefined, what: string): OneofAnswer =>
    file === undefined
      ? notFound(`${what} not found`)
      : { case: 'fileDescriptorResponse', value: { fileDescriptorProto: index.serializedWithDependencies(file) } };
  const r = req.messageRequest;
  let messageResponse: OneofAnswer;
  switch (r.case) {
    case 'listServices':
      messageResponse = {
        case: 'listServicesResponse',
        value: { service: index.service_names.map((name) => ({ name })) },
      };
      break;
    case 'fileByFilename':
      messageResponse = files(index.fileByName(r.value), `file "${r.value}"`);
      break;
    case 'fileContainingSymbol':
      messageResponse = files(index.fileBySymbol(r.value), `symbol "${r.value}"`);
      break;
    case 'fileContainingExtension':
      messageResponse = files(
        index.fileByExtension(r.value.containingType, r.value.extensionNumber),
        `extension ${r.value.extensionNumber} of "${r.value.containingType}"`,
      );
      break;
    case 'allExtensionNumbersOfType': {
      const numbers = index.extensionNumbers(r.value);
      messageResponse =
        numbers === undefined
          ? notFound(`type "${r.value}" has no known extensions`)
          : { case: 'allExtensionNumbersResponse', value: { baseTypeName: r.value, extensionNumber: numbers } };
      break;
    }
    case undefined:
      messageResponse = {
        case: 'errorResponse',
        value: { errorCode: grpc_codes.INVALID_ARGUMENT, errorMessage: 'empty reflection request' },
      };
      break;
  }
  return { validHost: req.host, originalRequest: req, messageResponse };
}

/**
 * Both reflection services over the given descriptors. The v1alpha messages are wire-identical to
 * v1, so v1alpha requests are re-read as v1 and answered by the same code.
 */
export function reflectionServices(services: readonly { readonly typeName: string; readonly file: DescFile }[]): RegisteredService[] {
  const index = new DescriptorIndex([...services, ServerReflection, ServerReflectionAlpha]);
  return [
    implement(ServerReflection, {
      serverReflectionInfo: async function* (reqs) {
        for await (const req of reqs) yield answerReflection(index, req);
      },
    }),
    implement(ServerReflectionAlpha, {
      serverReflectionInfo: async function* (reqs) {
        for await (const req of reqs) {
          const asV1 = fromBinary(ServerReflectionRequestSchema, toBinary(ServerReflectionAlpha.method.serverReflectionInfo.input, req));
          const answer = toBinary(ServerReflectionResponseSchema, create(ServerReflectionResponseSchema, answerReflection(index, asV1)));
          yield fromBinary(ServerReflectionResponseAlphaSchema, answer);
        }
      },
    }),
  ];
}
