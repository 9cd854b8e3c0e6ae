import { requiredField, type MessagePayload } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { booleanField, optionalLocalized, requiredBoolean } from '../discounts/common-actions.js';
import { assertCartSortOrderFree, sortOrderField } from '../discounts/sort-order.js';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, validKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { DISCOUNT_GROUP_TYPE_ID, type DiscountGroup } from './discount-group.js';
import { assertRoomForActiveGroup } from './limits.js';

/** DiscountGroup.key is required (DiscountGroupDraft, DiscountGroupSetKeyAction), with the usual key pattern. */
function requiredKey(value: unknown): string {
  if (value === undefined || value === null) throw requiredField('key');
  return validKey(value);
}

function setLocalized(group: DiscountGroup, field: 'name' | 'description', value: unknown): void {
  const localized = optionalLocalized(value, field);
  if (localized === undefined) delete group[field];
  else group[field] = localized;
}

/** The `{value, oldValue}` payload of the DiscountGroup*Set messages; nothing when nothing changed. */
function setMessage<V>(type: string, field: string, value: V, oldValue: V): MessagePayload[] {
  if (value === oldValue) return [];
  const old = `old${field[0]?.toUpperCase() ?? ''}${field.slice(1)}`;
  return [{ type, [field]: value, [old]: oldValue }];
}

/**
 * `/{projectKey}/discount-groups` (reference: resources/discount-groups.raml, types/discount-group).
 * Messages: DiscountGroupCreated, Deleted, IsActiveSet, KeySet and SortOrderSet; setName and
 * setDescription are notified as changes only (the reference has no message for them).
 */
export function discountGroupDefinition(documents: DocumentStore): ResourceDefinition<DiscountGroup> {
  return {
    typeId: DISCOUNT_GROUP_TYPE_ID,
    path: 'discount-groups',
    // resources/discount-groups.raml securedBy: view_cart_discounts to read, manage_cart_discounts to write.
    scopes: { view: ['view_cart_discounts'], manage: ['manage_cart_discounts'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'DiscountGroupDraft');
      const fields: Omit<DiscountGroup, ServerFields> = {
        key: requiredKey(draft.key),
        sortOrder: sortOrderField(draft.sortOrder),
        isActive: booleanField(draft.isActive, 'isActive', true),
      };
      const name = optionalLocalized(draft.name, 'name');
      if (name !== undefined) fields.name = name;
      const description = optionalLocalized(draft.description, 'description');
      if (description !== undefined) fields.description = description;
      await assertCartSortOrderFree(documents.db, ctx.projectKey, fields.sortOrder);
      if (fields.isActive) await assertRoomForActiveGroup(documents.db, ctx.projectKey);
      return fields;
    },
    createdMessages: (discountGroup) => [{ type: 'DiscountGroupCreated', discountGroup }],
    deletedMessages: () => [{ type: 'DiscountGroupDeleted' }],

    /** "If the DiscountGroup is referenced by a CartDiscount, a ReferenceExists error is returned." */
    async assertDeletable(group, tx, ctx) {
      const holder = await referencingType(tx, ctx.projectKey, `$.discountGroup ? (@.id == ${JSON.stringify(group.id)})`, ['cart-discount']);
      if (holder !== undefined) throw referenceExists(`The discount group '${group.id}' is used by a cart discount; change its discountGroup first.`, holder);
    },

    actions: {
      setName(group, action) {
        setLocalized(group, 'name', action.name);
      },
      setDescription(group, action) {
        setLocalized(group, 'description', action.description);
      },
      setKey(group, action) {
        const key = requiredKey(action.key);
        const messages = setMessage('DiscountGroupKeySet', 'key', key, group.key);
        group.key = key;
        return messages;
      },
      async setSortOrder(group, action, { ctx }) {
        const sortOrder = sortOrderField(action.sortOrder);
        if (sortOrder === group.sortOrder) return [];
        await assertCartSortOrderFree(documents.db, ctx.projectKey, sortOrder, group.id);
        const messages = setMessage('DiscountGroupSortOrderSet', 'sortOrder', sortOrder, group.sortOrder);
        group.sortOrder = sortOrder;
        return messages;
      },
      async setIsActive(group, action, { ctx }) {
        const isActive = requiredBoolean(action.isActive, 'isActive');
        if (isActive === group.isActive) return [];
        if (isActive) await assertRoomForActiveGroup(documents.db, ctx.projectKey, group.id);
        const messages = setMessage('DiscountGroupIsActiveSet', 'isActive', isActive, group.isActive);
        group.isActive = isActive;
        return messages;
      },
    },
  };
}
