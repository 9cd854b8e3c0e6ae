import { DEFAULT_CLOUDEVENTS_TYPE_PREFIX } from '@herald/model';
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { EndpointOption } from './registry.js';

/** Static AWS credentials (Herald's own, for EventBridge PutPartnerEvents). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** A Google service account key (the delivery account of §2.4 ProviderCPubSub). */
export interface GoogleCredentials {
  client_email: string;
  private_key: string;
}

/**
 * Everything the adapters need from the process, injected by the entry point (no `process.env`
 * below it). Endpoint overrides point the SDKs at local peers or emulators.
 */
export interface DestinationEnvironment {
  /**
   * Endpoint overrides by the option each destination's descriptor declares (`sqs`, `pubsub`, …);
   * the descriptor's variable in the configuration table says what value it takes.
   */
  endpoints: { readonly [Option in EndpointOption]?: string };
  eventBridge: {
    /** Name of Herald as an EventBridge partner: `aws.partner/<partnerName>/…`. */
    partnerName: string;
    credentials?: AwsCredentials;
    /**
     * Create the subscription's partner event source (CreatePartnerEventSource) when verifying a
     * destination (§2.4). Off where another process provisions sources.
     */
    createPartnerEventSources: boolean;
  };
  pubsub: { credentials?: GoogleCredentials };
  timeouts: {
    /** Default bound of one `send`/`verify` call when the caller gives none. */
    sendMs: number;
  };
  resend: {
    /** Immediate resends of entries that failed with a temporary per-entry error, per send call. */
    maxImmediateResends: number;
  };
  /** Requests of one send call that may be in flight at once (batches beyond the first). */
  maxConcurrentRequests: number;
  /** Permit plain-HTTP Event Grid topic URIs (local peers only). */
  allowInsecureConnections: boolean;
  /** §6.2: the CloudEvents `type` namespace. */
  cloudEventsTypePrefix: string;
  logger: Logger;
}

export type DestinationEnvironmentOptions = {
  [K in keyof DestinationEnvironment]?: DestinationEnvironment[K] extends Logger | string | number | boolean
    ? DestinationEnvironment[K]
    : Partial<DestinationEnvironment[K]>;
};

export const DEFAULT_PARTNER_NAME = 'herald';

/** Fills in defaults; the result is frozen and shared by every adapter of a pool. */
export function createDestinationEnvironment(options: DestinationEnvironmentOptions = {}): DestinationEnvironment {
  return Object.freeze({
    endpoints: { ...options.endpoints },
    eventBridge: { partnerName: DEFAULT_PARTNER_NAME, createPartnerEventSources: true, ...options.eventBridge },
    pubsub: { ...options.pubsub },
    timeouts: { sendMs: 10_000, ...options.timeouts },
    resend: { maxImmediateResends: 2, ...options.resend },
    maxConcurrentRequests: options.maxConcurrentRequests ?? 4,
    allowInsecureConnections: options.allowInsecureConnections ?? false,
    cloudEventsTypePrefix: options.cloudEventsTypePrefix ?? DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
    logger: options.logger ?? pino({ level: 'silent' }),
  });
}
