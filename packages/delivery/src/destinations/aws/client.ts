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
