import type { BaseResource, Clock } from '@herald/model';
import type { Database, DocumentStore } from '@herald/store';
import { businessUnitActions } from '../business-units/actions.js';
import { modeActions } from '../business-units/modes.js';
import { cartActions } from '../carts/actions.js';
import { CustomerCredentials } from '../customers/credentials.js';
import { customerActions } from '../customers/actions.js';
import { customerGroupDefinition } from '../customer-groups/definition.js';
import { createOrderActions } from '../orders/actions.js';
import { paymentDefinition } from '../payments/definition.js';
import { quoteRequestActions } from '../quote-requests/actions.js';
import { quoteActions } from '../quotes/actions.js';
import { shoppingListActions } from '../shopping-lists/actions.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { stagedQuoteActions } from '../staged-quotes/actions.js';
import type { ExtensionResourceTypeId } from './extension.js';

/** The update actions of every resource type an Extension can be triggered by, by type id. */
export type TriggeredActions = Partial<Record<ExtensionResourceTypeId, ActionHandlers<BaseResource>>>;

const erased = <D extends BaseResource>(handlers: ActionHandlers<D>): ActionHandlers<BaseResource> => handlers as unknown as ActionHandlers<BaseResource>;

/**
 * The handlers the update actions an Extension returns are applied with: each type's own (the
 * merchant's set, as the API client routes use: an Extension is the project's code, not the
 * buyer's). `payment-method` has no resource in Herald: a trigger for it is accepted and never fires.
 */
export function triggeredActions(documents: DocumentStore, db: Database, clock: Clock): TriggeredActions {
  return {
    cart: erased(cartActions),
    order: erased(createOrderActions(clock)),
    payment: erased(paymentDefinition(documents).actions),
    customer: erased(customerActions(new CustomerCredentials(db))),
    'customer-group': erased(customerGroupDefinition(documents).actions),
    'quote-request': erased(quoteRequestActions),
    'staged-quote': erased(stagedQuoteActions),
    quote: erased(quoteActions),
    'business-unit': erased({ ...businessUnitActions, ...modeActions }),
    'shopping-list': erased(shoppingListActions({ db, clock })),
  };
}
