import { HERALD_VARIABLES } from '@herald/model';
import { defineDestination, EVERY_FORMAT } from '../descriptor.js';
import { createPubSubAdapter } from './adapter.js';
import { PUBSUB_LIMITS } from './encode.js';

/** §2.4 ProviderCPubSub: a topic of a Google Cloud project; Herald's own service account sends. */
export const PUBSUB_DESTINATION = defineDestination({
  type: 'ProviderCPubSub',
  aliases: ['GoogleCloudPubSub'],
  normalize: (fields) => ({ type: 'ProviderCPubSub', projectId: fields.string('projectId'), topic: fields.string('topic') }),
  secretFields: [],
  formats: EVERY_FORMAT,
  limits: PUBSUB_LIMITS,
  // `host:port`: the SDK then uses insecure gRPC, as emulators expect.
  endpointOverride: { option: 'pubsub', variable: HERALD_VARIABLES.pubsubEndpoint },
  createAdapter: createPubSubAdapter,
});
