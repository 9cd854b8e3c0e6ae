import { requirePermission } from '../associates/require-permission.js';
import { cartActions } from '../carts/actions.js';
import type { Cart } from '../carts/cart.js';
import { CART_SCOPES } from '../carts/definition.js';
import { cartFromDraft } from '../carts/draft.js';
import { withRequiredCartFields } from '../carts/required-fields.js';
import { asDraft } from '../shared/validation.js';
import type { InBusinessUnitResource } from './in-business-unit.js';

/**
 * `…/in-business-unit/key={businessUnitKey}/carts` (reference: "Carts in BusinessUnit as
 * Associate"): the API client's cart scopes, the CartUpdate actions, and per cart the permissions
 * {View,Update,Delete}{My,Others}Carts by its `customerId`.
 */
export const associateCarts: InBusinessUnitResource<Cart> = {
  typeId: 'cart',
  path: 'carts',
  scopes: CART_SCOPES,
  customerPath: ['customerId'],
  permissions: {
    view: { my: 'ViewMyCarts', others: 'ViewOthersCarts' },
    update: { my: 'UpdateMyCarts', others: 'UpdateOthersCarts' },
    delete: { my: 'DeleteMyCarts', others: 'DeleteOthersCarts' },
  },
  /**
   * A cart of the draft's `customerId`, the associate's own when it names none (CreateMyCarts or
   * CreateOthersCarts). The reference: the draft's `businessUnit` is ignored, the path's unit is the cart's.
   */
  async create(body, ctx, scope, deps) {
    const draft = asDraft(body, 'CartDraft');
    const customerId = typeof draft.customerId === 'string' ? draft.customerId : scope.associateId;
    await requirePermission({ documents: deps.documents }, scope, { my: 'CreateMyCarts', others: 'CreateOthersCarts' }, customerId, { action: 'create carts' });
    return cartFromDraft({ ...draft, customerId, businessUnit: { typeId: 'business-unit', key: scope.businessUnitKey } }, ctx, {});
  },
  actions: cartActions,
  remove: { personalData: true },
  present: withRequiredCartFields,
};
