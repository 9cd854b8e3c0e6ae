import { invalidInput, requiredField, type Clock, type LocalizedString } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, localizedString, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { assignmentActions } from './assignment-actions.js';
import { PRODUCT_SELECTION_TYPE_ID, presentSelection, SELECTION_MODES, type ProductSelection, type SelectionMode } from './product-selection.js';

/** The deprecated ProductSelectionTypeEnum of a draft's `type`, and the mode each names. */
const MODE_OF_TYPE: Readonly<Record<string, SelectionMode>> = { individual: 'Individual', individualExclusion: 'IndividualExclusion' };

/**
 * The draft's `mode` (default Individual); the deprecated `type` is accepted too (the reference
 * still lists it), and both given must agree.
 */
function draftMode(mode: unknown, type: unknown): SelectionMode {
  const fromType = type === undefined || type === null ? undefined : MODE_OF_TYPE[String(type)];
  if (type !== undefined && type !== null && (typeof type !== 'string' || fromType === undefined)) {
    throw invalidInput(`'type' must be one of ${Object.keys(MODE_OF_TYPE).join(', ')}.`, { field: 'type', invalidValue: type });
  }
  if (mode === undefined || mode === null) return fromType ?? 'Individual';
  if (typeof mode !== 'string' || !(SELECTION_MODES as readonly string[]).includes(mode)) {
    throw invalidInput(`'mode' must be one of ${SELECTION_MODES.join(', ')}.`, { field: 'mode', invalidValue: mode });
  }
  if (fromType !== undefined && fromType !== mode)
    throw invalidInput(`'type' ${String(type)} contradicts 'mode' ${mode}.`, { field: 'type', invalidValue: type });
  return mode as SelectionMode;
}

function requiredName(value: unknown): LocalizedString {
  if (value === undefined || value === null) throw requiredField('name');
  return localizedString(value, 'name');
}

/**
 * `/{projectKey}/product-selections` (reference: resources/product-selections.raml). The reference
 * has messages only for creation, deletion and the assignment actions: changeName, setKey and the
 * custom field actions make a new version without a message.
 */
export function productSelectionDefinition(clock: Clock): ResourceDefinition<ProductSelection> {
  return {
    typeId: PRODUCT_SELECTION_TYPE_ID,
    path: 'product-selections',
    scopes: { view: ['view_product_selections'], manage: ['manage_product_selections'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'ProductSelectionDraft');
      const fields: Omit<ProductSelection, ServerFields> = {
        name: requiredName(draft.name),
        mode: draftMode(draft.mode, draft.type),
        productCount: 0,
        assignments: [],
      };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      const custom = await customFromDraft(draft.custom, PRODUCT_SELECTION_TYPE_ID, ctx);
      if (custom !== undefined) fields.custom = custom;
      return fields;
    },

    createdMessages: (selection) => [{ type: 'ProductSelectionCreated', productSelection: presentSelection(selection) }],
    deletedMessages: () => [{ type: 'ProductSelectionDeleted' }],
    present: (selection) => presentSelection(selection),

    /**
     * The reference does not say; Herald refuses (400 ReferenceExists) while a Store lists the
     * selection, as for a Store still referenced: the Store's `productSelections` would otherwise
     * name a selection that no longer exists, and its assortment would change silently. The way
     * out is the Store's removeProductSelection. Same transaction and accepted race as Stores'.
     */
    async assertDeletable(selection, tx, ctx) {
      const jsonpath = `$.productSelections[*].productSelection ? (@.id == ${JSON.stringify(selection.id)})`;
      const holder = await referencingType(tx, ctx.projectKey, jsonpath, ['store']);
      if (holder !== undefined) {
        throw referenceExists(`The product-selection '${selection.key ?? selection.id}' is still used by a store; remove it from the store first.`, holder);
      }
    },

    actions: {
      changeName(selection, action) {
        selection.name = requiredName(action.name);
      },
      setKey(selection, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete selection.key;
        else selection.key = key;
      },
      ...assignmentActions(clock),
      ...customFieldActions<ProductSelection>(PRODUCT_SELECTION_TYPE_ID, { messages: false }),
    },
  };
}
