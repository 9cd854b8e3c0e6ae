import type { DeliveryPayload, SubscriptionHealthStatus } from '@herald/model';
import type { FailureClass } from '../destinations/port.js';

/** §3.3 project setting that decides the ConfigurationError window (`project.doc.environment`). */
export type ProjectEnvironment = 'production' | 'development' | 'staging';

export const PROJECT_ENVIRONMENTS: readonly ProjectEnvironment[] = ['production', 'development', 'staging'];

/** Reads a project's environment setting; anything unknown or absent counts as production. */
export function projectEnvironment(value: unknown): ProjectEnvironment {
  return PROJECT_ENVIRONMENTS.includes(value as ProjectEnvironment) ? (value as ProjectEnvironment) : 'production';
}

/**
 * Why a delivery was given up on. A closed set: it is a metric label and an API field.
 * - `PayloadError`: the destination (or encoding) rejected the message itself; retrying cannot help.
 * - `TemporaryErrorWindowElapsed`: temporary failures for 48 hours (§6.2 delivery guarantees 1).
 * - `ConfigurationErrorDeliveryStopped`: the ConfigurationError window elapsed (§3.3), or the
 *   subscription was already stopped and a new delivery failed its one try.
 * - `SubscriptionDeleted`: the subscription was deleted while the delivery was pending.
 */
export type DropReason = 'PayloadError' | 'TemporaryErrorWindowElapsed' | 'ConfigurationErrorDeliveryStopped' | 'SubscriptionDeleted';

export const DROP_REASONS: readonly DropReason[] = ['PayloadError', 'TemporaryErrorWindowElapsed', 'ConfigurationErrorDeliveryStopped', 'SubscriptionDeleted'];

/** A subscription, as deliveries name it. */
export interface SubscriptionRef {
  readonly projectKey: string;
  readonly subscriptionId: string;
}

/** The error a failed attempt recorded, without its cause (that stays in the logs). */
export interface RecordedError {
  class: FailureClass;
  code: string;
  message: string;
}

/** A pending delivery as a sender holds it under its lease. */
export interface LeasedDelivery {
  id: number;
  projectKey: string;
  subscriptionId: string;
  eventId: string;
  payload: DeliveryPayload;
  /**
   * False for a message the write did not keep for the Messages API (messages disabled): it cannot
   * be retrieved, so its CloudEvent has no `dataref` (§6.2). True for changes.
   */
  messageStored: boolean;
  committedAt: Date;
  /** Failed attempts so far (not counting the one about to be made). */
  attempts: number;
  firstFailureAt: Date | undefined;
}

/** A dropped delivery as `listDropped` returns it. */
export interface DroppedDelivery {
  /** Stable id of the drop record (what `replayDropped` takes). */
  id: string;
  eventId: string;
  reason: DropReason;
  error?: RecordedError;
  attempts: number;
  committedAt: string;
  firstFailureAt?: string;
  droppedAt: string;
  payload: DeliveryPayload;
}

/** §4.4.2-shaped page of dropped deliveries. */
export interface DroppedDeliveryPage {
  limit: number;
  offset: number;
  count: number;
  /** Omitted when `withTotal=false` (§4.4.2). */
  total?: number;
  results: DroppedDelivery[];
}

export interface DeliveryStatus {
  pendingCount: number;
  /** Age of the oldest pending delivery's event (outbox commit), 0 when nothing is pending. */
  oldestPendingAgeSeconds: number;
  lastError?: RecordedError;
  lastErrorAt?: string;
}

export type { SubscriptionHealthStatus };
