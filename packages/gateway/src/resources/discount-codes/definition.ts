import type { DocumentStore, ServerFields } from '@herald/store';
import { booleanField, describedActions, optionalLocalized, requiredBoolean } from '../discounts/common-actions.js';
import { validityActions, validityFromDraft } from '../discounts/validity.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { DISCOUNT_CODE_TYPE_ID, type DiscountCode } from './discount-code.js';
import { cartDiscountsField, cartPredicateOf, codeField, groupsField, optionalCount, storesOf, discountCodeUniqueValues } from './fields.js';

async function fromDraft(body: unknown, ctx: RequestContext): Promise<Omit<DiscountCode, ServerFields>> {
  const draft = asDraft(body, 'DiscountCodeDraft');
  const code = codeField(draft.code);
  const { references: cartDiscounts, discounts } = await cartDiscountsField(draft.cartDiscounts, ctx.load);
  const fields: Omit<DiscountCode, ServerFields> = {
    code,
    cartDiscounts,
    stores: storesOf(discounts),
    isActive: booleanField(draft.isActive, 'isActive', true),
    groups: groupsField(draft.groups),
    ...cartPredicateOf(draft.cartPredicate),
    ...validityFromDraft(draft),
  };
  const optional = {
    key: optionalKey(draft.key),
    name: optionalLocalized(draft.name, 'name'),
    description: optionalLocalized(draft.description, 'description'),
    maxApplications: optionalCount(draft.maxApplications, 'maxApplications'),
    maxApplicationsPerCustomer: optionalCount(draft.maxApplicationsPerCustomer, 'maxApplicationsPerCustomer'),
    custom: await customFromDraft(draft.custom, DISCOUNT_CODE_TYPE_ID, ctx),
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(fields, { [field]: value });
  return fields;
}

function setOptional<F extends 'name' | 'maxApplications' | 'maxApplicationsPerCustomer'>(
  code: DiscountCode,
  field: F,
  value: DiscountCode[F] | undefined,
): void {
  if (value === undefined) delete code[field];
  else code[field] = value;
}

const codeActions: ActionHandlers<DiscountCode> = {
  ...describedActions<DiscountCode>(),
  ...validityActions<DiscountCode>(),
  ...customFieldActions<DiscountCode>(DISCOUNT_CODE_TYPE_ID, { messages: false }),
  /** The only DiscountCode action with a message (DiscountCodeKeySet, with the key before it). */
  setKey(code, action) {
    const key = optionalKey(action.key);
    if (key === code.key) return [];
    const oldKey = code.key;
    if (key === undefined) delete code.key;
    else code.key = key;
    return [{ type: 'DiscountCodeKeySet', ...(key === undefined ? {} : { key }), ...(oldKey === undefined ? {} : { oldKey }) }];
  },
  setName(code, action) {
    setOptional(code, 'name', optionalLocalized(action.name, 'name'));
  },
  changeIsActive(code, action) {
    code.isActive = requiredBoolean(action.isActive, 'isActive');
  },
  setCartPredicate(code, action) {
    const { cartPredicate, references } = cartPredicateOf(action.cartPredicate);
    if (cartPredicate === undefined) delete code.cartPredicate;
    else code.cartPredicate = cartPredicate;
    code.references = references;
  },
  async changeCartDiscounts(code, action, { ctx }) {
    const { references, discounts } = await cartDiscountsField(action.cartDiscounts, ctx.load);
    code.cartDiscounts = references;
    code.stores = storesOf(discounts);
  },
  changeGroups(code, action) {
    code.groups = groupsField(action.groups ?? []);
  },
  setMaxApplications(code, action) {
    setOptional(code, 'maxApplications', optionalCount(action.maxApplications, 'maxApplications'));
  },
  setMaxApplicationsPerCustomer(code, action) {
    setOptional(code, 'maxApplicationsPerCustomer', optionalCount(action.maxApplicationsPerCustomer, 'maxApplicationsPerCustomer'));
  },
};

/**
 * `/{projectKey}/discount-codes` (reference: resources/discount-codes.raml, types/discount-code).
 * `code` is set once and unique (DuplicateField); messages DiscountCodeCreated, DiscountCodeDeleted
 * and DiscountCodeKeySet. The delete accepts `dataErasure` (the reference's `is: dataErasure`).
 */
export function discountCodeDefinition(documents: DocumentStore): ResourceDefinition<DiscountCode> {
  documents.declareUniqueValues(DISCOUNT_CODE_TYPE_ID, discountCodeUniqueValues);
  return {
    typeId: DISCOUNT_CODE_TYPE_ID,
    path: 'discount-codes',
    // securedBy: view_discount_codes / manage_discount_codes; view_orders / manage_orders are the reference's deprecated scopes, still accepted.
    scopes: { view: ['view_discount_codes', 'view_orders'], manage: ['manage_discount_codes', 'manage_orders'] },
    personalData: true,
    fromDraft,
    createdMessages: (discountCode) => [{ type: 'DiscountCodeCreated', discountCode }],
    deletedMessages: () => [{ type: 'DiscountCodeDeleted' }],
    actions: codeActions,
  };
}
