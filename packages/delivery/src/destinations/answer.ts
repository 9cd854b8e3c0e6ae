import type { Destination } from '@herald/model';
import type { DestinationAnswerContext } from './descriptor.js';
import { maskDestinationSecrets } from './mask.js';
import { descriptorOf } from './registry.js';

export type { DestinationAnswerContext };

/**
 * A stored destination as every API answer shows it: secrets partially hidden (§2.4), plus what the
 * reference's destination type requires and the document may not hold, as its descriptor answers
 * it (SQS/SNS `authenticationMode`, EventBridge `source`).
 */
export function answerDestination(destination: Destination, context: DestinationAnswerContext): Destination {
  const masked = maskDestinationSecrets(destination);
  return descriptorOf(masked.type).answer?.(masked, context) ?? masked;
}
