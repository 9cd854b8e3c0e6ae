import type { OwnedPermission } from '../associates/permissions.js';
import { requirePermission } from '../associates/require-permission.js';
import { readerLookup } from '../business-units/associates.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import type { Quote } from './quote.js';

/** The permission each answer to a B2B quote needs (reference MyQuoteChangeMyQuoteStateAction). */
export function answerPermission(action: string, quoteState: unknown): OwnedPermission {
  if (action === 'requestQuoteRenegotiation') return { my: 'RenegotiateMyQuotes', others: 'RenegotiateOthersQuotes' };
  return quoteState === 'Declined' ? { my: 'DeclineMyQuotes', others: 'DeclineOthersQuotes' } : { my: 'AcceptMyQuotes', others: 'AcceptOthersQuotes' };
}

/**
 * The buyer's actions checked first against the associate's permission in the quote's business
 * unit; `associateOf` names who acts (the token's customer on `/me`, the path's associate
 * as-associate), undefined when nobody does. A quote without a unit needs no permission.
 */
export function withAnswerPermissions(
  actions: ActionHandlers<Quote>,
  associateOf: (scope: Parameters<ActionHandler<Quote>>[2]) => string | undefined,
): ActionHandlers<Quote> {
  const guarded =
    (name: string, handler: ActionHandler<Quote>): ActionHandler<Quote> =>
    async (quote, action, scope) => {
      const associateId = associateOf(scope);
      const businessUnitKey = quote.businessUnit?.key;
      if (associateId !== undefined && businessUnitKey !== undefined) {
        const place = { projectKey: scope.ctx.projectKey, associateId, businessUnitKey };
        await requirePermission({ documents: readerLookup(scope.reader) }, place, answerPermission(name, action.quoteState), quote.customer?.id, {
          action: `${name} quotes`,
        });
      }
      return handler(quote, action, scope);
    };
  return Object.fromEntries(Object.entries(actions).map(([name, handler]) => [name, guarded(name, handler)]));
}
