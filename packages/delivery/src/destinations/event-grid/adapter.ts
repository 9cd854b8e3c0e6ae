import type { EventGridDestination } from '@herald/model';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import { lazyClient } from '../lazy-client.js';
import type { DestinationAdapter } from '../port.js';
import { ENTRY_DELIVERED } from '../send-loop.js';
import { classifyEventGridError } from './classify.js';
import { encodeEventGrid, EVENT_GRID_LIMITS, type EventGridNativeEvent } from './encode.js';

/**
 * §2.4 EventGrid: topic URI + access key; events in Event Grid's CloudEvents 1.0 schema. Nothing to
 * verify: the test notification's send itself checks that the topic exists and the key is valid.
 */
export function createEventGridAdapter(destination: EventGridDestination, env: DestinationEnvironment): DestinationAdapter<EventGridNativeEvent> {
  return defineAdapter({
    type: 'EventGrid',
    limits: EVENT_GRID_LIMITS,
    env,
    // The publisher holds no connection of its own beyond the shared HTTP agent: close only forgets it.
    client: lazyClient(async () => {
      const sdk = await import('@azure/eventgrid');
      return new sdk.EventGridPublisherClient(destination.uri, 'CloudEvent', new sdk.AzureKeyCredential(destination.accessKey), {
        allowInsecureConnection: env.allowInsecureConnections,
        // The SDK retries 3 times by default; the engine owns retrying.
        retryOptions: { maxRetries: 0 },
      });
    }),
    encode: (payload, format) => encodeEventGrid(payload, format, env),
    classify: classifyEventGridError,
    sendRequest: async (publisher, messages, abortSignal) => {
      // Event Grid accepts or rejects a request as a whole: no per-entry results.
      await publisher.send(
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
