import type { DeliveryPayload, DestinationType, Format } from '@herald/model';
import type { DestinationEnvironment } from './environment.js';
import type { LazyClient } from './lazy-client.js';
import type {
  DeliveryFailure,
  DestinationAdapter,
  DestinationLimits,
  EncodeContext,
  EncodedMessage,
  EncodeResult,
  SendOptions,
  VerifyContext,
  VerifyOutcome,
} from './port.js';
import { sendWithResends, type EntryResult } from './send-loop.js';

/** What is specific to one destination; `defineAdapter` adds the skeleton every adapter shares. */
export interface AdapterSpec<TNative, TClient> {
  readonly type: DestinationType;
  readonly limits: DestinationLimits;
  readonly env: DestinationEnvironment;
  /** The destination's SDK client, created on the first request; `close()` releases it. */
  readonly client: LazyClient<TClient>;
  /** Formats and binds one delivery (usually through `encodeWithFallback`). */
  encode(payload: DeliveryPayload, format: Format, context: EncodeContext): EncodeResult<TNative>;
  /** Classifies an error that failed a whole request. */
  classify(error: unknown): DeliveryFailure;
  /** Sends one request of the shared send loop and answers one result per entry, in order. */
  sendRequest(client: TClient, messages: readonly EncodedMessage<TNative>[], signal: AbortSignal, options: SendOptions | undefined): Promise<EntryResult[]>;
  /** Checks beyond what a send proves; without it, verifying always passes. */
  verify?(context: VerifyContext, options?: SendOptions): Promise<VerifyOutcome>;
}

/** Builds an adapter: encode as the spec says, send through the shared send loop, close the client. */
export function defineAdapter<TNative, TClient>(spec: AdapterSpec<TNative, TClient>): DestinationAdapter<TNative> {
  const { type, limits, env, client } = spec;
  return {
    type,
    limits,
    encode: (payload, format, context) => spec.encode(payload, format, context),
    send: (batch, options) =>
      sendWithResends(batch, options, env, limits, {
        classify: (error) => spec.classify(error),
        sendRequest: async (messages, signal) => spec.sendRequest(await client.get(), messages, signal, options),
      }),
    verify: (context, options) => spec.verify?.(context, options) ?? Promise.resolve({ ok: true }),
    close: () => client.close(),
  };
}
