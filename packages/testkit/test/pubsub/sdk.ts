import type { CallOptions, PubSub, v1 } from '@google-cloud/pubsub';

// Without this the SDK probes the cloud metadata server, which is unreachable here.
process.env['METADATA_SERVER_DETECTION'] = 'none';

/** No retries: for transient codes the SDK would otherwise retry for up to 600 s. */
export const NO_RETRY: CallOptions = { retry: { retryCodes: [] }, timeout: 5_000 };

/** The PubSub client's config for the generated v1 clients (its type says `port` may be a string; they want a number). */
export async function generatedClientOptions(pubsub: PubSub): Promise<ConstructorParameters<typeof v1.PublisherClient>[0]> {
  const { port, ...config } = await pubsub.getClientConfig();
  return { ...config, ...(port === undefined ? {} : { port: Number(port) }) };
}

/** Runs `action`, which must fail, and returns what it threw (gRPC errors carry `code` and `details`). */
export async function failure(action: () => Promise<unknown>): Promise<Error & { code?: number; details?: string }> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}
