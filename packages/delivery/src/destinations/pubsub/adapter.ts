import type { PubSub, v1 } from '@google-cloud/pubsub';
import type { PubSubDestination } from '@herald/model';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import { lazyClient } from '../lazy-client.js';
import type { DestinationAdapter } from '../port.js';
import { ENTRY_DELIVERED } from '../send-loop.js';
import { classifyPubSubError } from './classify.js';
import { encodePubSub, PUBSUB_LIMITS, type PubSubNativeMessage } from './encode.js';

interface Connected {
  pubsub: PubSub;
  publisher: v1.PublisherClient;
}

/** `projects/<project>/topics/<topic>`; a topic given in full form is kept as is. */
export function topicPath(destination: PubSubDestination): string {
  return destination.topic.startsWith('projects/') ? destination.topic : `projects/${destination.projectId}/topics/${destination.topic}`;
}

/**
 * §2.4 ProviderCPubSub. Publishes through the generated `PublisherClient` so that one request of the
 * send loop is one Publish RPC: the library's own batching, bundling and retries are off. Nothing to
 * verify: the test notification's publish itself checks that the topic exists and publishing is permitted.
 */
export function createPubSubAdapter(destination: PubSubDestination, env: DestinationEnvironment): DestinationAdapter<PubSubNativeMessage> {
  const client = lazyClient(
    async (): Promise<Connected> => {
      const sdk = await import('@google-cloud/pubsub');
      const { endpoints, pubsub: pubsubEnv } = env;
      const pubsub = new sdk.PubSub({
        projectId: destination.projectId,
        // A non-Google endpoint puts the SDK in emulator mode (insecure gRPC, no metadata probe).
        ...(endpoints.pubsub === undefined ? {} : { apiEndpoint: endpoints.pubsub }),
        ...(pubsubEnv.credentials === undefined ? {} : { credentials: pubsubEnv.credentials }),
      });
      // The SDK's documented way to build a generated client with the PubSub object's settings;
      // its `port` is typed wider (string | number) than the generated client's option.
      const config = (await pubsub.getClientConfig()) as ConstructorParameters<typeof sdk.v1.PublisherClient>[0];
      const publisher = new sdk.v1.PublisherClient(config);
      return { pubsub, publisher };
    },
    {
      release: async (pending) => {
        const connected = await pending.catch(() => undefined);
        await connected?.publisher.close();
        await connected?.pubsub.close();
      },
    },
  );

  return defineAdapter({
    type: 'ProviderCPubSub',
    limits: PUBSUB_LIMITS,
    env,
    client,
    encode: (payload, format) => encodePubSub(payload, format, env),
    classify: classifyPubSubError,
    sendRequest: async ({ publisher }, messages, signal, options) => {
      const call = publisher.publish(
        {
          topic: topicPath(destination),
          messages: messages.map(({ native }) => ({ data: Buffer.from(native.data), attributes: native.attributes })),
        },
        // One attempt, bounded by the send's deadline; no client-side bundling delay.
        { timeout: options?.timeoutMs ?? env.timeouts.sendMs, retry: null, isBundling: false },
      );
      // The gax promise can be cancelled; the send loop's race bounds it either way.
      const cancel = (): void => (call as { cancel?: () => void }).cancel?.();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        await call;
      } finally {
        signal.removeEventListener('abort', cancel);
      }
      // Publish is all-or-nothing: no per-message results.
      return messages.map(() => ENTRY_DELIVERED);
    },
  });
}
