import { invalidOperation } from '@herald/model';
import { requirePermission } from '../associates/require-permission.js';
import { quoteRequestActions } from '../quote-requests/actions.js';
import { presentQuoteRequest, QUOTE_REQUEST_SCOPES, quoteRequestCreated } from '../quote-requests/definition.js';
import { quoteRequestFromDraft } from '../quote-requests/draft.js';
import type { QuoteRequest } from '../quote-requests/quote-request.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/**
 * `…/in-business-unit/key={businessUnitKey}/quote-requests` (reference: "QuoteRequests in
 * BusinessUnit as Associate"): the reference's QuoteRequestUpdate actions, as the API client may
 * use them on `/quote-requests`, once the associate has Update{My,Others}QuoteRequests.
 */
export const associateQuoteRequests: InBusinessUnitResource<QuoteRequest> = {
  typeId: 'quote-request',
  path: 'quote-requests',
  scopes: QUOTE_REQUEST_SCOPES,
  customerPath: ['customer', 'id'],
  permissions: {
    view: { my: 'ViewMyQuoteRequests', others: 'ViewOthersQuoteRequests' },
    update: { my: 'UpdateMyQuoteRequests', others: 'UpdateOthersQuoteRequests' },
  },
  /**
   * From a cart of the unit (the reference: "fails with an InvalidOperation if the Cart does not
   * reference the same BusinessUnit"); CreateMyQuoteRequestsFromMyCarts for the associate's own
   * cart, CreateQuoteRequestsFromOthersCarts for another customer's.
   */
  async create(body, ctx, scope, deps) {
    const fields = await quoteRequestFromDraft(body, ctx);
    const permission = { my: 'CreateMyQuoteRequestsFromMyCarts', others: 'CreateQuoteRequestsFromOthersCarts' } as const;
    await requirePermission({ documents: deps.documents }, scope, permission, fields.customer.id, { action: 'create quote requests' });
    if (fields.businessUnit?.key !== scope.businessUnitKey) {
      throw invalidOperation(`The cart does not reference the business unit '${scope.businessUnitKey}'.`);
    }
    return fields;
  },
  createdMessages: (quoteRequest) => [quoteRequestCreated(quoteRequest)],
  actions: quoteRequestActions,
  present: presentQuoteRequest,
};
