import type { EventBridgeDestination } from '@herald/model';
import { awsSendClientOptions, lazyAwsClient } from '../aws/client.js';
import { classifyAwsError } from '../aws/errors.js';
import { defineAdapter } from '../define-adapter.js';
import type { DestinationEnvironment } from '../environment.js';
import { abortFailure, classOf, failure } from '../failure.js';
import type { DeliveryFailure, DestinationAdapter, VerifyOutcome } from '../port.js';
import { ENTRY_DELIVERED, raceAbort, withDeadline, type EntryResult } from '../send-loop.js';
import { EVENTBRIDGE_ERROR_CODES } from './classify.js';
import { encodeEventBridge, EVENTBRIDGE_LIMITS, type EventBridgeNativeEntry } from './encode.js';
import { partnerEventSourceName } from './source-name.js';

/**
 * §2.4 EventBridge: Herald puts events as a partner (PutPartnerEvents, its own AWS credentials from
 * the environment) on a partner event source in the receiving account `accountId`, region `region`.
 */
export function createEventBridgeAdapter(destination: EventBridgeDestination, env: DestinationEnvironment): DestinationAdapter<EventBridgeNativeEntry> {
  const client = lazyAwsClient(async () => {
    const sdk = await import('@aws-sdk/client-eventbridge');
    const { endpoints, eventBridge } = env;
    const client = new sdk.EventBridgeClient({
      region: destination.region,
      ...(eventBridge.credentials === undefined ? {} : { credentials: eventBridge.credentials }),
      ...(endpoints.eventBridge === undefined ? {} : { endpoint: endpoints.eventBridge }),
      ...awsSendClientOptions(env.timeouts.sendMs),
    });
    return { sdk, client };
  });
  const createdSources = new Set<string>();

  return defineAdapter({
    type: 'EventBridge',
    limits: EVENTBRIDGE_LIMITS,
    env,
    client,
    encode: (payload, format, context) =>
      encodeEventBridge(payload, format, context, {
        cloudEventsTypePrefix: env.cloudEventsTypePrefix,
        partnerName: env.eventBridge.partnerName,
      }),
    classify: (error) => classifyAwsError(error, EVENTBRIDGE_ERROR_CODES),
    sendRequest: async ({ sdk, client: eventBridge }, messages) => {
      const response = await eventBridge.send(
        new sdk.PutPartnerEventsCommand({
          Entries: messages.map(({ native }) => ({
            Source: native.source,
            DetailType: native.detailType,
            Detail: native.detail,
            Time: new Date(native.time),
          })),
        }),
      );
      // Entries answer in request order; an entry with an ErrorCode failed, the others went through.
      return messages.map((_, index): EntryResult => {
        const entry = response.Entries?.[index];
        if (entry?.ErrorCode === undefined) return ENTRY_DELIVERED;
        return { status: 'failed', ...classifyEntry(entry.ErrorCode, entry.ErrorMessage) };
      });
    },
    /** Creates the subscription's partner event source in the receiving account (idempotent). */
    verify: async (context, options) => {
      if (!env.eventBridge.createPartnerEventSources) return { ok: true };
      const name = partnerEventSourceName(env.eventBridge.partnerName, context.projectKey, context.subscriptionId);
      if (createdSources.has(name)) return { ok: true };
      return withDeadline(options, env, async (signal): Promise<VerifyOutcome> => {
        try {
          const { sdk, client: eventBridge } = await client.get();
          await raceAbort(
            eventBridge.send(new sdk.CreatePartnerEventSourceCommand({ Name: name, Account: destination.accountId }), {
              abortSignal: signal,
            }),
            signal,
          );
        } catch (error) {
          if ((error as { name?: unknown }).name !== 'ResourceAlreadyExistsException') {
            return { ok: false, failure: abortFailure(signal, error) ?? classifyAwsError(error, EVENTBRIDGE_ERROR_CODES) };
          }
        }
        createdSources.add(name);
        return { ok: true };
      });
    },
  });
}

/** Per-entry codes: internal failures and throttling of one entry are resent at once. */
function classifyEntry(code: string, message: string | undefined): { failure: DeliveryFailure; resendable: boolean } {
  const cls = classOf(EVENTBRIDGE_ERROR_CODES, code) ?? 'payload';
  return {
    failure: failure(cls, code, message ?? 'EventBridge rejected this entry'),
    resendable: cls === 'temporary',
  };
}
