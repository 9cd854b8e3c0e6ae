import { myQuoteActions } from '../quotes/actions.js';
import { withAnswerPermissions } from '../quotes/permissions.js';
import type { Quote } from '../quotes/quote.js';
import { QUOTE_SCOPES } from '../quotes/routes.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/** Each answer checks its own permission (quotes/permissions.ts); the path's associate acts (in-business-unit.ts sets it). */
const associateQuoteActions = withAnswerPermissions(myQuoteActions, (scope) => scope.ctx.write.initiator?.associate?.id);

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
