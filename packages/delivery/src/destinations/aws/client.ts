import { lazyClient, type LazyClient } from '../lazy-client.js';

/** An AWS SDK v3 client with its module, whose command classes the adapter sends. */
export interface AwsClient<TSdk, TClient extends { destroy(): void }> {
  sdk: TSdk;
  client: TClient;
}

/**
 * The AWS adapters' client cache: `close()` destroys the client (and rejects with the creation's
 * error when it failed).
 */
export function lazyAwsClient<TSdk, TClient extends { destroy(): void }>(
  create: () => Promise<AwsClient<TSdk, TClient>>,
): LazyClient<AwsClient<TSdk, TClient>> {
  return lazyClient(create, { release: async (pending) => (await pending).client.destroy() });
}

/**
 * Options every AWS adapter's client takes. The engine owns retrying (§6.2 retry windows): one
 * attempt per request. Sends pass no per-call options, so that the client resolves its middleware
 * stack once per command class and reuses it (`cacheMiddleware`): with any per-call option, an
 * abort signal included, the SDK builds the whole stack again for every request, about a fifth of
 * a request's CPU in the worker (issue 30). The send loop's deadline still ends each send at once
 * (`raceAbort`); the HTTP request it leaves behind is ended by the handler at the send timeout.
 */
export function awsSendClientOptions(sendTimeoutMs: number): {
  maxAttempts: number;
  cacheMiddleware: boolean;
  requestHandler: { requestTimeout: number; throwOnRequestTimeout: boolean };
} {
  return { maxAttempts: 1, cacheMiddleware: true, requestHandler: { requestTimeout: sendTimeoutMs, throwOnRequestTimeout: true } };
}
