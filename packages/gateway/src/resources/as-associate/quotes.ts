import { invalidOperation, type MessagePayload } from '@herald/model';
import type { OwnedPermission } from '../associates/permissions.js';
import { requirePermission } from '../associates/require-permission.js';
import { readerLookup } from '../business-units/associates.js';
import { myQuoteActions } from '../quotes/actions.js';
import type { Quote } from '../quotes/quote.js';
import { QUOTE_SCOPES } from '../quotes/routes.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/** The permission each answer to a quote needs (reference MyQuoteChangeMyQuoteStateAction). */
function answerPermission(action: string, quoteState: unknown): OwnedPermission {
  if (action === 'requestQuoteRenegotiation') return { my: 'RenegotiateMyQuotes', others: 'RenegotiateOthersQuotes' };
  return quoteState === 'Declined' ? { my: 'DeclineMyQuotes', others: 'DeclineOthersQuotes' } : { my: 'AcceptMyQuotes', others: 'AcceptOthersQuotes' };
}

/**
 * A buyer's action checked against the acting associate's permission in the quote's unit first:
 * accepting, declining and renegotiating are separate permissions, so the route's single update
 * permission cannot decide it. The associate is the request's initiator (in-business-unit.ts).
 */
function permitted(handler: ActionHandler<Quote>, action: string): ActionHandler<Quote> {
  return async (quote, update, scope): Promise<MessagePayload[] | void> => {
    const associateId = scope.ctx.write.initiator?.associate?.id;
    const businessUnitKey = quote.businessUnit?.key;
    if (associateId === undefined || businessUnitKey === undefined) throw invalidOperation('This action is only available to an associate of the quote\'s business unit.');
    const place = { projectKey: scope.ctx.projectKey, associateId, businessUnitKey };
    await requirePermission({ documents: readerLookup(scope.reader) }, place, answerPermission(action, update.quoteState), quote.customer?.id, { action: `${action} quotes` });
    return handler(quote, update, scope);
  };
}

const associateQuoteActions: ActionHandlers<Quote> = Object.fromEntries(
  Object.entries(myQuoteActions).map(([name, handler]) => [name, permitted(handler, name)]),
);

/**
 * `…/in-business-unit/key={businessUnitKey}/quotes` (reference: "Quotes in BusinessUnit as
 * Associate"): the unit's quotes, read with View{My,Others}Quotes and answered with the buyer's
 * actions (MyQuoteUpdateAction), each with its Accept/Decline/Renegotiate permission.
 */
export const associateQuotes: InBusinessUnitResource<Quote> = {
  typeId: 'quote',
  path: 'quotes',
  scopes: QUOTE_SCOPES,
  customerPath: ['customer', 'id'],
  permissions: {
    view: { my: 'ViewMyQuotes', others: 'ViewOthersQuotes' },
    // Reading the quote is the gate; each action checks its own permission.
    update: { my: 'ViewMyQuotes', others: 'ViewOthersQuotes' },
  },
  actions: associateQuoteActions,
};
