import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { DeliveryPayload, EventBridgeDestination, Format } from '@herald/model';
import { classifyAwsError } from '../aws/errors.js';
import type { DestinationEnvironment } from '../environment.js';
import { abortFailure, classOf, failure } from '../failure.js';
import type {
  DeliveryFailure,
  DestinationAdapter,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  SendOutcome,
  VerifyContext,
  VerifyOutcome,
} from '../port.js';
import { deadlineSignal, ENTRY_DELIVERED, raceAbort, sendWithResends, type EntryResult } from '../send-loop.js';
import { EVENTBRIDGE_ERROR_CODES } from './classify.js';
import { encodeEventBridge, EVENTBRIDGE_LIMITS, type EventBridgeNativeEntry } from './encode.js';
import { partnerEventSourceName } from './source-name.js';

type EventBridgeSdk = typeof import('@aws-sdk/client-eventbridge');

/**
 * §2.4 EventBridge: Herald puts events as a partner (PutPartnerEvents, its own AWS credentials from
 * the environment) on a partner event source in the receiving account `accountId`, region `region`.
 */
export class EventBridgeAdapter implements DestinationAdapter<EventBridgeNativeEntry> {
  readonly type = 'EventBridge';
  readonly limits = EVENTBRIDGE_LIMITS;
  private client: Promise<{ sdk: EventBridgeSdk; client: EventBridgeClient }> | undefined;
  private readonly createdSources = new Set<string>();

  constructor(
    private readonly destination: EventBridgeDestination,
    private readonly env: DestinationEnvironment,
  ) {}

  encode(payload: DeliveryPayload, format: Format, context: EncodeContext): EncodeResult<EventBridgeNativeEntry> {
    return encodeEventBridge(payload, format, context, {
      cloudEventsTypePrefix: this.env.cloudEventsTypePrefix,
      partnerName: this.env.eventBridge.partnerName,
    });
  }

  async send(batch: readonly EncodedMessage<EventBridgeNativeEntry>[], options?: SendOptions): Promise<SendOutcome[]> {
    return sendWithResends(batch, options, this.env, this.limits, {
      classify: (error) => classifyAwsError(error, EVENTBRIDGE_ERROR_CODES),
      sendRequest: async (messages, signal) => {
        const { sdk, client } = await this.sdkClient();
        const response = await client.send(
          new sdk.PutPartnerEventsCommand({
            Entries: messages.map(({ native }) => ({
              Source: native.source,
              DetailType: native.detailType,
              Detail: native.detail,
              Time: new Date(native.time),
            })),
          }),
          { abortSignal: signal },
        );
        // Entries answer in request order; an entry with an ErrorCode failed, the others went through.
        return messages.map((_, index): EntryResult => {
          const entry = response.Entries?.[index];
          if (entry?.ErrorCode === undefined) return ENTRY_DELIVERED;
          return { status: 'failed', ...classifyEntry(entry.ErrorCode, entry.ErrorMessage) };
        });
      },
    });
  }

  /** Creates the subscription's partner event source in the receiving account (idempotent). */
  async verify(context: VerifyContext, options?: SendOptions): Promise<VerifyOutcome> {
    if (!this.env.eventBridge.createPartnerEventSources) return { ok: true };
    const name = partnerEventSourceName(this.env.eventBridge.partnerName, context.projectKey, context);
    if (this.createdSources.has(name)) return { ok: true };
    const signal = deadlineSignal(options, this.env);
    try {
      const { sdk, client } = await this.sdkClient();
      await raceAbort(
        client.send(new sdk.CreatePartnerEventSourceCommand({ Name: name, Account: this.destination.accountId }), {
          abortSignal: signal,
        }),
        signal,
      );
    } catch (error) {
      if ((error as { name?: unknown }).name !== 'ResourceAlreadyExistsException') {
        return { ok: false, failure: abortFailure(signal, error) ?? classifyAwsError(error, EVENTBRIDGE_ERROR_CODES) };
      }
    }
    this.createdSources.add(name);
    return { ok: true };
  }

  async close(): Promise<void> {
    const pending = this.client;
    this.client = undefined;
    if (pending !== undefined) (await pending).client.destroy();
  }

  private sdkClient(): Promise<{ sdk: EventBridgeSdk; client: EventBridgeClient }> {
    this.client ??= (async () => {
      const sdk = await import('@aws-sdk/client-eventbridge');
      const { endpoints, eventBridge } = this.env;
      const client = new sdk.EventBridgeClient({
        region: this.destination.region,
        ...(eventBridge.credentials === undefined ? {} : { credentials: eventBridge.credentials }),
        ...(endpoints.eventBridge === undefined ? {} : { endpoint: endpoints.eventBridge }),
        maxAttempts: 1,
      });
      return { sdk, client };
    })();
    return this.client;
  }
}

/** Per-entry codes: internal failures and throttling of one entry are resent at once. */
function classifyEntry(code: string, message: string | undefined): { failure: DeliveryFailure; resendable: boolean } {
  const cls = classOf(EVENTBRIDGE_ERROR_CODES, code) ?? 'payload';
  return {
    failure: failure(cls, code, message ?? 'EventBridge rejected this entry'),
    resendable: cls === 'temporary',
  };
}

export function createEventBridgeAdapter(
  destination: EventBridgeDestination,
  env: DestinationEnvironment,
): EventBridgeAdapter {
  return new EventBridgeAdapter(destination, env);
}
