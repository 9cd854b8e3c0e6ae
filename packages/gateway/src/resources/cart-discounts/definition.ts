import { invalidInput, requiredField, type Reference } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import type { CompiledPredicate } from '../../predicates/index.js';
import { booleanField, describedActions, optionalLocalized, requiredBoolean, requiredLocalized } from '../discounts/common-actions.js';
import { compiledField, predicateReferences } from '../discounts/predicate-field.js';
import { assertCartSortOrderFree, sortOrderField } from '../discounts/sort-order.js';
import { validityActions, validityFromDraft } from '../discounts/validity.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { CART_DISCOUNT_TYPE_ID, STACKING_MODES, type CartDiscount, type CartDiscountTarget, type RecurringOrderScope } from './cart-discount.js';
import { assertTargetGroupable, discountGroupOf, type Grouping } from './discount-group.js';
import { assertRoomForActive, assertRoomForNew, countsAgainstLimits } from './limits.js';
import { storeActions, storeReferences } from './stores.js';
import { assertValueFitsTarget, cartDiscountTarget } from './target.js';
import { cartDiscountValue, enumField } from './value.js';

const SCOPE_TYPES = ['NonRecurringOrdersOnly', 'RecurringOrdersOnly', 'AnyOrder', 'ApplicableRecurrencePolicies'] as const;

/** RecurringOrderScopeDraft; "If not set, the default is NonRecurringOrdersOnly". Policies must exist. */
async function recurringOrderScope(value: unknown, load: Load): Promise<RecurringOrderScope> {
  if (value === undefined || value === null) return { type: 'NonRecurringOrdersOnly' };
  const draft = asDraft(value, 'RecurringOrderScopeDraft');
  const type = enumField(draft.type, 'recurringOrderScope.type', SCOPE_TYPES);
  if (type !== 'ApplicableRecurrencePolicies') return { type };
  if (!Array.isArray(draft.recurrencePolicies) || draft.recurrencePolicies.length === 0) throw requiredField('recurringOrderScope.recurrencePolicies');
  const recurrencePolicies: Array<Reference<'recurrence-policy'>> = [];
  for (const [index, item] of draft.recurrencePolicies.entries()) {
    const policy = await loadReferenced(
      load,
      'recurrence-policy',
      identifierLocator(item, `recurringOrderScope.recurrencePolicies[${index}]`, 'recurrence-policy'),
    );
    recurrencePolicies.push({ typeId: 'recurrence-policy', id: policy.id });
  }
  return { type, recurrencePolicies };
}

function checkedTarget(value: unknown): { target?: CartDiscountTarget; predicates: CompiledPredicate[] } {
  if (value === undefined || value === null) return { predicates: [] };
  return cartDiscountTarget(value);
}

/** The references of the cart predicate and the target's predicates (CartDiscount.references). */
function referencesOf(discount: Pick<CartDiscount, 'cartPredicate' | 'target'>): Reference[] {
  const predicates = [compiledField(discount.cartPredicate, 'cartPredicate', 'cart')];
  const target = discount.target;
  if (target !== undefined && 'predicate' in target)
    predicates.push(compiledField(target.predicate, 'target.predicate', target.type.endsWith('ustomLineItems') ? 'customLineItem' : 'lineItem'));
  if (target?.type === 'pattern') {
    for (const each of [...target.triggerPattern, ...target.targetPattern]) {
      predicates.push(compiledField(each.predicate, 'target', each.type === 'CountOnLineItemUnits' ? 'lineItem' : 'customLineItem'));
    }
  }
  return predicateReferences(predicates);
}

/** CartDiscountSetDiscountGroupAction: only groupable targets join; the discount takes the group's sortOrder. */
function joinGroup(discount: CartDiscount, group: Grouping): void {
  assertTargetGroupable(discount.target);
  discount.discountGroup = group.reference;
  discount.sortOrder = group.sortOrder;
}

const groupedSortOrder = () =>
  invalidInput("A cart discount in a discount group uses the group's sortOrder; remove it from the group (setDiscountGroup) to give it its own.", {
    field: 'sortOrder',
  });

async function fromDraft(body: unknown, ctx: RequestContext, documents: DocumentStore): Promise<Omit<CartDiscount, ServerFields>> {
  const draft = asDraft(body, 'CartDiscountDraft');
  const name = requiredLocalized(draft.name, 'name');
  const value = await cartDiscountValue(draft.value, ctx.load);
  const cartPredicate = compiledField(draft.cartPredicate, 'cartPredicate', 'cart').source;
  const { target } = checkedTarget(draft.target);
  assertValueFitsTarget(value, target);
  const group = await discountGroupOf(draft.discountGroup, ctx.load);
  if (group !== undefined) assertTargetGroupable(target);
  // CartDiscountDraft.sortOrder is optional only for members of a DiscountGroup, which use the group's.
  const sortOrder = group?.sortOrder ?? sortOrderField(draft.sortOrder);
  const fields: Omit<CartDiscount, ServerFields> = {
    name,
    value,
    cartPredicate,
    sortOrder,
    stores: await storeReferences(draft.stores, 'stores', ctx.load),
    isActive: booleanField(draft.isActive, 'isActive', true),
    requiresDiscountCode: booleanField(draft.requiresDiscountCode, 'requiresDiscountCode', false),
    references: [],
    stackingMode: draft.stackingMode === undefined || draft.stackingMode === null ? 'Stacking' : enumField(draft.stackingMode, 'stackingMode', STACKING_MODES),
    recurringOrderScope: await recurringOrderScope(draft.recurringOrderScope, ctx.load),
    ...validityFromDraft(draft),
  };
  if (target !== undefined) fields.target = target;
  fields.references = referencesOf(fields);
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  const description = optionalLocalized(draft.description, 'description');
  if (description !== undefined) fields.description = description;
  if (group !== undefined) fields.discountGroup = group.reference;
  const custom = await customFromDraft(draft.custom, CART_DISCOUNT_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  if (group === undefined) await assertCartSortOrderFree(documents.db, ctx.projectKey, sortOrder);
  await assertRoomForNew(documents.db, ctx.projectKey, fields);
  return fields;
}

/**
 * `/{projectKey}/cart-discounts` (reference: resources/cart-discounts.raml, types/cart-discount).
 * Messages: CartDiscountCreated, CartDiscountDeleted and the three store messages; the other
 * actions are notified as changes only (the reference has no messages for them).
 */
export function cartDiscountDefinition(documents: DocumentStore): ResourceDefinition<CartDiscount> {
  return {
    typeId: CART_DISCOUNT_TYPE_ID,
    path: 'cart-discounts',
    // securedBy: view_cart_discounts or view_orders to read; manage_cart_discounts or manage_orders to write.
    scopes: { view: ['view_cart_discounts', 'view_orders'], manage: ['manage_cart_discounts', 'manage_orders'] },
    fromDraft: (body, ctx) => fromDraft(body, ctx, documents),
    createdMessages: (cartDiscount) => [{ type: 'CartDiscountCreated', cartDiscount }],
    deletedMessages: () => [{ type: 'CartDiscountDeleted' }],

    /** A discount a DiscountCode still applies is not deleted: the code would name a discount that is gone. */
    async assertDeletable(discount, tx, ctx) {
      const holder = await referencingType(tx, ctx.projectKey, `$.cartDiscounts[*] ? (@.id == ${JSON.stringify(discount.id)})`, ['discount-code']);
      if (holder !== undefined) throw referenceExists(`The cart discount '${discount.id}' is used by a discount code; change its cartDiscounts first.`, holder);
    },

    actions: {
      ...describedActions<CartDiscount>(),
      ...validityActions<CartDiscount>(),
      ...storeActions(documents.db),
      ...customFieldActions<CartDiscount>(CART_DISCOUNT_TYPE_ID, { messages: false }),
      changeName(discount, action) {
        discount.name = requiredLocalized(action.name, 'name');
      },
      async changeValue(discount, action, { ctx }) {
        const value = await cartDiscountValue(action.value, ctx.load);
        // CartDiscountChangeValueAction: "When trying to set a CartDiscountValueGiftLineItemDraft an InvalidInput error is returned."
        if (value.type === 'giftLineItem') throw invalidInput('changeValue cannot set a giftLineItem value.', { field: 'value' });
        assertValueFitsTarget(value, discount.target);
        discount.value = value;
      },
      changeCartPredicate(discount, action) {
        discount.cartPredicate = compiledField(action.cartPredicate, 'cartPredicate', 'cart').source;
        discount.references = referencesOf(discount);
      },
      changeTarget(discount, action) {
        if (action.target === undefined || action.target === null) throw requiredField('target');
        const { target } = cartDiscountTarget(action.target);
        assertValueFitsTarget(discount.value, target);
        if (discount.discountGroup !== undefined) assertTargetGroupable(target);
        discount.target = target;
        discount.references = referencesOf(discount);
      },
      async changeSortOrder(discount, action, { ctx }) {
        const sortOrder = sortOrderField(action.sortOrder);
        // CartDiscount.sortOrder: "If the CartDiscount is part of a DiscountGroup, it uses the sort order of the DiscountGroup."
        if (discount.discountGroup !== undefined) throw groupedSortOrder();
        if (sortOrder !== discount.sortOrder) await assertCartSortOrderFree(documents.db, ctx.projectKey, sortOrder, discount.id);
        discount.sortOrder = sortOrder;
      },
      async changeIsActive(discount, action, { ctx }) {
        const counted = countsAgainstLimits(discount);
        discount.isActive = requiredBoolean(action.isActive, 'isActive');
        if (!counted) await assertRoomForActive(documents.db, ctx.projectKey, discount, discount.id);
      },
      async changeRequiresDiscountCode(discount, action, { ctx }) {
        const counted = countsAgainstLimits(discount);
        discount.requiresDiscountCode = requiredBoolean(action.requiresDiscountCode, 'requiresDiscountCode');
        if (!counted) await assertRoomForActive(documents.db, ctx.projectKey, discount, discount.id);
      },
      changeStackingMode(discount, action) {
        if (action.stackingMode === undefined || action.stackingMode === null) throw requiredField('stackingMode');
        discount.stackingMode = enumField(action.stackingMode, 'stackingMode', STACKING_MODES);
      },
      async setDiscountGroup(discount, action, { ctx }) {
        const group = await discountGroupOf(action.discountGroup, ctx.load);
        if (group !== undefined) {
          joinGroup(discount, group);
          return;
        }
        // "Required if discountGroup is absent": leaving a group, the discount needs its own sortOrder.
        const sortOrder = sortOrderField(action.sortOrder);
        const ownedBefore = discount.discountGroup === undefined && sortOrder === discount.sortOrder;
        if (!ownedBefore) await assertCartSortOrderFree(documents.db, ctx.projectKey, sortOrder, discount.id);
        delete discount.discountGroup;
        discount.sortOrder = sortOrder;
      },
      async setRecurringOrderScope(discount, action, { ctx }) {
        if (action.recurringOrderScope === undefined || action.recurringOrderScope === null) throw requiredField('recurringOrderScope');
        discount.recurringOrderScope = await recurringOrderScope(action.recurringOrderScope, ctx.load);
      },
    },
  };
}
