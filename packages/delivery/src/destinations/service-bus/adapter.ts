import type { ServiceBusClient, ServiceBusMessage, ServiceBusSender } from '@azure/service-bus';
import type { ServiceBusDestination } from '@herald/model';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import { failure } from '../failure.js';
import { lazyClient } from '../lazy-client.js';
import type { DeliveryFailure, DestinationAdapter, EncodedMessage } from '../port.js';
import { ENTRY_DELIVERED, type EntryResult } from '../send-loop.js';
import { classifyServiceBusError } from './classify.js';
import { parseServiceBusConnectionString } from './connection-string.js';
import { encodeServiceBus, SERVICE_BUS_LIMITS, type ServiceBusNativeMessage } from './encode.js';

interface Connected {
  client: ServiceBusClient;
  sender: ServiceBusSender;
}

/**
 * §2.4 ProviderBServiceBus: the connection string's EntityPath names the queue or topic. One
 * request of the send loop becomes as many SDK batches as `tryAddMessage` fills, sent in order.
 * Nothing to verify: the test notification's send itself checks that the entity exists and the key
 * may send.
 */
export function createServiceBusAdapter(destination: ServiceBusDestination, env: DestinationEnvironment): DestinationAdapter<ServiceBusNativeMessage> {
  return defineAdapter({
    type: 'ProviderBServiceBus',
    limits: SERVICE_BUS_LIMITS,
    env,
    client: lazyClient(
      async (): Promise<Connected> => {
        const sdk = await import('@azure/service-bus');
        const { entityPath } = parseServiceBusConnectionString(destination.connectionString);
        const client = new sdk.ServiceBusClient(destination.connectionString, {
          // The SDK's default is 3 retries of 30 s each; the engine owns retrying.
          retryOptions: { maxRetries: 0, timeoutInMs: env.timeouts.sendMs },
        });
        // Validation rejects a connection string without EntityPath (§2.4).
        return { client, sender: client.createSender(entityPath ?? '') };
      },
      {
        release: async (pending) => {
          const { client, sender } = await pending.catch(() => ({ client: undefined, sender: undefined }));
          await sender?.close();
          await client?.close();
        },
        // A failed connection is not cached: the next send tries again.
        retryFailedCreate: true,
      },
    ),
    encode: (payload, format) => encodeServiceBus(payload, format, env),
    classify: classifyServiceBusError,
    sendRequest: ({ sender }, messages, signal) => sendFilledBatches(sender, messages, signal),
  });
}

async function sendFilledBatches(
  sender: ServiceBusSender,
  messages: readonly EncodedMessage<ServiceBusNativeMessage>[],
  abortSignal: AbortSignal,
): Promise<EntryResult[]> {
  const results: EntryResult[] = [];
  let next = 0;
  while (next < messages.length) {
    const sdkBatch = await sender.createMessageBatch({ abortSignal });
    const start = next;
    while (next < messages.length && sdkBatch.tryAddMessage(toSdkMessage(messageAt(messages, next)))) next++;
    if (next === start) {
      // Does not fit an empty batch: the link's max_message_size is below what we measured.
      results.push({ status: 'failed', failure: tooLargeForLink(sdkBatch.maxSizeInBytes), resendable: false });
      next++;
      continue;
    }
    try {
      await sender.sendMessages(sdkBatch, { abortSignal });
      for (let i = start; i < next; i++) results.push(ENTRY_DELIVERED);
    } catch (error) {
      // The link is in the same state for the rest: they share this failure without a try.
      const shared = classifyServiceBusError(error);
      while (results.length < messages.length) results.push({ status: 'failed', failure: shared, resendable: false });
      return results;
    }
  }
  return results;
}

function messageAt<T>(messages: readonly EncodedMessage<T>[], index: number): EncodedMessage<T> {
  return messages[index] as EncodedMessage<T>;
}

function toSdkMessage(message: EncodedMessage<ServiceBusNativeMessage>): ServiceBusMessage {
  const { body, contentType, messageId } = message.native;
  // A Buffer body goes out as one raw AMQP data section; other bodies would be JSON-encoded again.
  return { body: Buffer.from(body), contentType, messageId };
}

function tooLargeForLink(maxSizeInBytes: number): DeliveryFailure {
  return failure('payload', 'MessageSizeExceeded', `The message does not fit the sender link's maximum message size of ${maxSizeInBytes} bytes`);
}
