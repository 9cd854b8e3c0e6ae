import { HERALD_VARIABLES } from '@herald/model';
import { defineDestination, EVERY_FORMAT } from '../descriptor.js';
import { createEventBridgeAdapter } from './adapter.js';
import { EVENTBRIDGE_LIMITS } from './encode.js';
import { partnerEventSourceName } from './source-name.js';

/**
 * §2.4 EventBridge: Herald puts events as a partner, with its own AWS credentials, on a partner
 * event source in the receiving account. No secret of the destination's own.
 */
export const EVENTBRIDGE_DESTINATION = defineDestination({
  type: 'EventBridge',
  aliases: [],
  // `source` is not read: it is the partner event source Herald names after the subscription
  // (answered, never taken from a draft; the official SDK's type requires it, so clients send one).
  normalize: (fields) => {
    const accountId = fields.string('accountId');
    if (accountId !== '') fields.check(/^\d{12}$/.test(accountId), 'destination.accountId: must be a 12-digit account id.');
    return { type: 'EventBridge', region: fields.string('region'), accountId };
  },
  secretFields: [],
  formats: EVERY_FORMAT,
  limits: EVENTBRIDGE_LIMITS,
  endpointOverride: { option: 'eventBridge', variable: HERALD_VARIABLES.eventBridgeEndpoint },
  // The reference type requires `source`: derived from the subscription, never stored, so it cannot
  // disagree with where events go.
  answer: (destination, context) => ({
    ...destination,
    source: partnerEventSourceName(context.eventBridgePartnerName, context.projectKey, context.subscriptionId),
  }),
  createAdapter: createEventBridgeAdapter,
});
