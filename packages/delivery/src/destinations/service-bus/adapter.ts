import type { ServiceBusClient, ServiceBusMessage, ServiceBusSender } from '@azure/service-bus';
import type { DeliveryPayload, Format, ServiceBusDestination } from '@herald/model';
import type { DestinationEnvironment } from '../environment.js';
import { failure } from '../failure.js';
import type {
  DeliveryFailure,
  DestinationAdapter,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  SendOutcome,
  VerifyOutcome,
} from '../port.js';
import { ENTRY_DELIVERED, sendWithResends, type EntryResult } from '../send-loop.js';
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
 */
export class ServiceBusAdapter implements DestinationAdapter<ServiceBusNativeMessage> {
  readonly type = 'ProviderBServiceBus';
  readonly limits = SERVICE_BUS_LIMITS;
  private connected: Promise<Connected> | undefined;

  constructor(
    private readonly destination: ServiceBusDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, _context: EncodeContext): EncodeResult<ServiceBusNativeMessage> {
    return encodeServiceBus(payload, format, this.env);
  }

  async send(batch: readonly EncodedMessage<ServiceBusNativeMessage>[], options?: SendOptions): Promise<SendOutcome[]> {
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: classifyServiceBusError,
      sendRequest: (messages, signal) => this.sendFilledBatches(messages, signal),
    });
  }

  /** Checked by the test notification's send itself (entity exists, key may send). */
  verify(): Promise<VerifyOutcome> {
    return Promise.resolve({ ok: true });
  }

  async close(): Promise<void> {
    const pending = this.connected;
    this.connected = undefined;
    if (pending === undefined) return;
    const { client, sender } = await pending.catch(() => ({ client: undefined, sender: undefined }));
    await sender?.close();
    await client?.close();
  }

  private async sendFilledBatches(
    messages: readonly EncodedMessage<ServiceBusNativeMessage>[],
    abortSignal: AbortSignal,
  ): Promise<EntryResult[]> {
    const { sender } = await this.connect();
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

  private connect(): Promise<Connected> {
    const pending = (this.connected ??= (async () => {
      const sdk = await import('@azure/service-bus');
      const { entityPath } = parseServiceBusConnectionString(this.destination.connectionString);
      const client = new sdk.ServiceBusClient(this.destination.connectionString, {
        // The SDK's default is 3 retries of 30 s each; the engine owns retrying.
        retryOptions: { maxRetries: 0, timeoutInMs: this.env.timeouts.sendMs },
      });
      // Validation rejects a connection string without EntityPath (§2.4).
      return { client, sender: client.createSender(entityPath ?? '') };
    })());
    // A failed connection is not cached: the next send tries again.
    pending.catch(() => {
      if (this.connected === pending) this.connected = undefined;
    });
    return pending;
  }
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
  return failure(
    'payload',
    'MessageSizeExceeded',
    `The message does not fit the sender link's maximum message size of ${maxSizeInBytes} bytes`,
  );
}

export function createServiceBusAdapter(destination: ServiceBusDestination, env: DestinationEnvironment): ServiceBusAdapter {
  return new ServiceBusAdapter(destination, env);
}
