import type { EventGridPublisherClient } from '@azure/eventgrid';
import type { DeliveryPayload, EventGridDestination, Format } from '@herald/model';
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
import { classifyEventGridError } from './classify.js';
import { encodeEventGrid, EVENT_GRID_LIMITS, type EventGridNativeEvent } from './encode.js';

/** §2.4 EventGrid: topic URI + access key; events in Event Grid's CloudEvents 1.0 schema. */
export class EventGridAdapter implements DestinationAdapter<EventGridNativeEvent> {
  readonly type = 'EventGrid';
  readonly limits = EVENT_GRID_LIMITS;
  private client: Promise<EventGridPublisherClient<'CloudEvent'>> | undefined;

  constructor(
    private readonly destination: EventGridDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, _context: EncodeContext): EncodeResult<EventGridNativeEvent> {
    return encodeEventGrid(payload, format, this.env);
  }

  async send(batch: readonly EncodedMessage<EventGridNativeEvent>[], options?: SendOptions): Promise<SendOutcome[]> {
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: classifyEventGridError,
      sendRequest: async (messages, abortSignal) => {
        const client = await this.publisher();
        // Event Grid accepts or rejects a request as a whole: no per-entry results.
        await client.send(
          messages.map(({ native }) => ({
            id: native.id,
            type: native.type,
            source: native.source,
            subject: native.subject,
            time: new Date(native.time),
            datacontenttype: native.datacontenttype,
            data: native.data,
            extensionAttributes: native.extensionAttributes,
          })),
          { abortSignal },
        );
        return messages.map(() => ENTRY_DELIVERED);
      },
    });
  }

  /** Checked by the test notification's send itself (topic exists, key valid). */
  verify(): Promise<VerifyOutcome> {
    return Promise.resolve({ ok: true });
  }

  close(): Promise<void> {
    // The publisher holds no connection of its own beyond the shared HTTP agent.
    this.client = undefined;
    return Promise.resolve();
  }

  private publisher(): Promise<EventGridPublisherClient<'CloudEvent'>> {
    this.client ??= (async () => {
      const sdk = await import('@azure/eventgrid');
      return new sdk.EventGridPublisherClient(
        this.destination.uri,
        'CloudEvent',
        new sdk.AzureKeyCredential(this.destination.accessKey),
        {
          allowInsecureConnection: this.env.allowInsecureConnections,
          // The SDK retries 3 times by default; the engine owns retrying.
          retryOptions: { maxRetries: 0 },
        },
      );
    })();
    return this.client;
  }
}

export function createEventGridAdapter(destination: EventGridDestination, env: DestinationEnvironment): EventGridAdapter {
  return new EventGridAdapter(destination, env);
}
