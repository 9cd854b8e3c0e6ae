import type { Destination } from '@herald/model';
import { partnerEventSourceName } from './eventbridge/source-name.js';
import { maskDestinationSecrets } from './mask.js';

/** What a destination's answer depends on beyond the destination itself. */
export interface DestinationAnswerContext {
  projectKey: string;
  subscriptionId: string;
  /** Herald's EventBridge partner name (`DestinationEnvironment.eventBridge.partnerName`). */
  eventBridgePartnerName: string;
}

/**
 * A stored destination as every API answer shows it: secrets partially hidden (§2.4), plus what the
 * reference's destination types require and the document may not hold:
 * - SQS/SNS `authenticationMode`: `Credentials` for destinations stored before the field existed
 *   (the reference type's default);
 * - EventBridge `source`: the partner event source the subscription's events are put on, derived
 *   from the subscription (never stored, so it cannot disagree with where events go).
 */
export function answerDestination(destination: Destination, context: DestinationAnswerContext): Destination {
  const masked = maskDestinationSecrets(destination);
  switch (masked.type) {
    case 'SQS':
    case 'SNS':
      return masked.authenticationMode === undefined ? { ...masked, authenticationMode: 'Credentials' } : masked;
    case 'EventBridge':
      return { ...masked, source: partnerEventSourceName(context.eventBridgePartnerName, context.projectKey, context.subscriptionId) };
    default:
      return masked;
  }
}
