/**
 * Helpers for the compatibility suite: SDK clients built exactly as an application would build
 * them (ClientBuilder + createApiBuilderFromCtpClient), changed only in their base URLs, and small
 * readers for SDK errors.
 */
import { createApiBuilderFromCtpClient, type ByProjectKeyRequestBuilder } from '@commercetools/platform-sdk';
import { ClientBuilder, type TokenCache, type TokenStore } from '@commercetools/ts-client';

// SDK errors are plain objects with extra fields; the assertions read them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SdkError = Record<string, any>;

/** An in-memory token cache an application can pass to any auth flow; the test reads it back. */
export class MemoryTokenCache implements TokenCache {
  stored: TokenStore | undefined;
  constructor(initial?: TokenStore) {
    this.stored = initial;
  }
  async get(): Promise<TokenStore | undefined> {
    return this.stored;
  }
  async set(cache: TokenStore): Promise<void> {
    this.stored = cache;
  }
}

export interface SdkTarget {
  /** Herald's base URL, both the API host and the auth host. */
  url: string;
  projectKey: string;
}

/** The API root over a built client: `createApiBuilderFromCtpClient(client).withProjectKey(...)`. */
export function apiRoot(client: ReturnType<ClientBuilder['build']>, target: SdkTarget): ByProjectKeyRequestBuilder {
  return createApiBuilderFromCtpClient(client).withProjectKey({ projectKey: target.projectKey });
}

/** `new ClientBuilder().withProjectKey(...).withHttpMiddleware({ host })`: the flows are added by the caller. */
export function baseBuilder(target: SdkTarget): ClientBuilder {
  return new ClientBuilder().withProjectKey(target.projectKey).withHttpMiddleware({ host: target.url, httpClient: fetch });
}

/** Runs an SDK call that must fail and returns the SDK's error object. */
export async function sdkFailure(call: Promise<unknown>): Promise<SdkError> {
  let answer: unknown;
  try {
    answer = await call;
  } catch (error) {
    return error as SdkError;
  }
  throw new Error(`The SDK call succeeded, but it was expected to fail: ${JSON.stringify(answer).slice(0, 2000)}`);
}
