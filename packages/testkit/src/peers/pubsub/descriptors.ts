import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

export interface PubSubServices {
  readonly publisher: ServiceDefinition;
  readonly subscriber: ServiceDefinition;
  /** Serialized size of a request object the services decoded (the "request payload size"). */
  wireSize(request: object): number | undefined;
}

/**
 * The google.pubsub.v1 services from the descriptor set `@google-cloud/pubsub` ships, so the peer
 * speaks exactly the protocol of the SDK version under test. Every request decoder is wrapped to
 * remember the encoded size, which grpc-js does not expose to handlers.
 */
export function loadPubSubServices(): PubSubServices {
  const require = createRequire(import.meta.url);
  const descriptorPath = require.resolve('@google-cloud/pubsub/build/protos/protos.json');
  const descriptors = JSON.parse(readFileSync(descriptorPath, 'utf8')) as Parameters<typeof fromJSON>[0];
  // defaults: absent fields read as their zero value, as in proto3; longs as numbers (counts, seconds).
  const definition = fromJSON(descriptors, { longs: Number, enums: String, defaults: true, oneofs: true });
  const sizes = new WeakMap<object, number>();
  return {
    publisher: measured(definition['google.pubsub.v1.Publisher'] as ServiceDefinition, sizes),
    subscriber: measured(definition['google.pubsub.v1.Subscriber'] as ServiceDefinition, sizes),
    wireSize: (request) => sizes.get(request),
  };
}

function measured(service: ServiceDefinition, sizes: WeakMap<object, number>): ServiceDefinition {
  const methods = Object.entries(service).map(([name, method]) => {
    const decode = method.requestDeserialize;
    const requestDeserialize = (bytes: Buffer): unknown => {
      const request: unknown = decode(bytes);
      if (typeof request === 'object' && request !== null) sizes.set(request, bytes.length);
      return request;
    };
    return [name, { ...method, requestDeserialize }] as const;
  });
  return Object.fromEntries(methods) as ServiceDefinition;
}
