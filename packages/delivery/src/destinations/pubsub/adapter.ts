import type { PubSub, v1 } from '@google-cloud/pubsub';
import type { DeliveryPayload, Format, PubSubDestination } from '@herald/model';
import type { DestinationEnvironment } from '../environment.js';
import type {
  DestinationAdapter,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  SendOutcome,
  VerifyOutcome,
} from '../port.js';
import { ENTRY_DELIVERED, sendWithResends } from '../send-loop.js';
import { classifyPubSubError } from './classify.js';
import { encodePubSub, PUBSUB_LIMITS, type PubSubNativeMessage } from './encode.js';

interface Connected {
  pubsub: PubSub;
  publisher: v1.PublisherClient;
}

/** `projects/<project>/topics/<topic>`; a topic given in full form is kept as is. */
export function topicPath(destination: PubSubDestination): string {
  return destination.topic.startsWith('projects/')
    ? destination.topic
    : `projects/${destination.projectId}/topics/${destination.topic}`;
}

/**
 * §2.4 ProviderCPubSub. Publishes through the generated `PublisherClient` so that one request of the
 * send loop is one Publish RPC: the library's own batching, bundling and retries are off.
 */
export class PubSubAdapter implements DestinationAdapter<PubSubNativeMessage> {
  readonly type = 'ProviderCPubSub';
  readonly limits = PUBSUB_LIMITS;
  private connected: Promise<Connected> | undefined;

  constructor(
    private readonly destination: PubSubDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, _context: EncodeContext): EncodeResult<PubSubNativeMessage> {
    return encodePubSub(payload, format, this.env);
  }

  async send(batch: readonly EncodedMessage<PubSubNativeMessage>[], options?: SendOptions): Promise<SendOutcome[]> {
    const timeout = options?.timeoutMs ?? this.env.timeouts.sendMs;
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: classifyPubSubError,
      sendRequest: async (messages, signal) => {
        const { publisher } = await this.connect();
        const call = publisher.publish(
          {
            topic: topicPath(this.destination),
            messages: messages.map(({ native }) => ({ data: Buffer.from(native.data), attributes: native.attributes })),
          },
          // One attempt, bounded by the send's deadline; no client-side bundling delay.
          { timeout, retry: null, isBundling: false },
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

  /** Checked by the test notification's publish itself (topic exists, publishing permitted). */
  verify(): Promise<VerifyOutcome> {
    return Promise.resolve({ ok: true });
  }

  async close(): Promise<void> {
    const pending = this.connected;
    this.connected = undefined;
    if (pending === undefined) return;
    const connected = await pending.catch(() => undefined);
    await connected?.publisher.close();
    await connected?.pubsub.close();
  }

  private connect(): Promise<Connected> {
    this.connected ??= (async () => {
      const sdk = await import('@google-cloud/pubsub');
      const { endpoints, pubsub: pubsubEnv } = this.env;
      const pubsub = new sdk.PubSub({
        projectId: this.destination.projectId,
        // A non-Google endpoint puts the SDK in emulator mode (insecure gRPC, no metadata probe).
        ...(endpoints.pubsub === undefined ? {} : { apiEndpoint: endpoints.pubsub }),
        ...(pubsubEnv.credentials === undefined ? {} : { credentials: pubsubEnv.credentials }),
      });
      // The SDK's documented way to build a generated client with the PubSub object's settings;
      // its `port` is typed wider (string | number) than the generated client's option.
      const config = (await pubsub.getClientConfig()) as ConstructorParameters<typeof sdk.v1.PublisherClient>[0];
      const publisher = new sdk.v1.PublisherClient(config);
      return { pubsub, publisher };
    })();
    return this.connected;
  }
}

export function createPubSubAdapter(destination: PubSubDestination, env: DestinationEnvironment): PubSubAdapter {
  return new PubSubAdapter(destination, env);
}
