import type { MessagePayload } from '@herald/model';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { quoteRequestActions } from './actions.js';
import { quoteRequestFromDraft } from './draft.js';
import { withQuoteRequestDefaults, type QuoteRequest } from './quote-request.js';

export const QUOTE_REQUEST_SCOPES = { view: ['view_quote_requests'], manage: ['manage_quote_requests'] } as const;
export const MY_QUOTE_REQUEST_SCOPES = { view: [], manage: ['manage_my_quote_requests'] } as const;

export const quoteRequestCreated = (quoteRequest: QuoteRequest): MessagePayload => ({ type: 'QuoteRequestCreated', quoteRequest });

/** Quote requests stored before a required field existed answer with its default. */
export const presentQuoteRequest = (quoteRequest: QuoteRequest): QuoteRequest => withQuoteRequestDefaults(quoteRequest);

/** §4.1 `/{projectKey}/quote-requests`: all eight operations, for the seller's API clients. */
export const quoteRequestDefinition: ResourceDefinition<QuoteRequest> = {
  typeId: 'quote-request',
  path: 'quote-requests',
  scopes: QUOTE_REQUEST_SCOPES,
  fromDraft: (body, ctx) => quoteRequestFromDraft(body, ctx),
  createdMessages: (quoteRequest) => [quoteRequestCreated(quoteRequest)],
  actions: quoteRequestActions,
  present: presentQuoteRequest,
  deletedMessages: () => [{ type: 'QuoteRequestDeleted' }],
  // Quote requests copy the buyer's addresses: deletes accept `dataErasure` (§4.1, §4.4.9).
  personalData: true,
};
