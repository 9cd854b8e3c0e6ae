import { invalidInput, invalidOperation } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { ActionHandlers } from '../shared/update-actions.js';
import { localizedString, stringArray } from '../shared/validation.js';
import {
  attributeDefinition,
  attributeDefinitionAlreadyExists,
  attributeLabel,
  attributeName,
  MAX_ATTRIBUTES,
  requiredBoolean,
  textInputHint,
} from './attribute-definitions.js';
import { attributeNamed } from './attribute-lookup.js';
import type { AttributeDefinition, ProductType } from './product-type.js';
import { assertNoTypeConflict } from './type-conflicts.js';

/**
 * ProductTypeChangeAttributeConstraintAction: "only following changes are supported: SameForAll to
 * None and Unique to None" (newValue is an AttributeConstraintEnumDraft, whose only value is None).
 * A constraint that is None already stays None: nothing changes.
 */
function changeConstraintToNone(definition: AttributeDefinition, newValue: unknown): void {
  if (newValue !== 'None') throw invalidInput("'newValue' must be None.", { field: 'newValue', invalidValue: newValue });
  if (definition.attributeConstraint === 'CombinationUnique') {
    throw invalidOperation(
      `The attributeConstraint of '${definition.name}' cannot change from CombinationUnique; only SameForAll and Unique can change to None.`,
    );
  }
  definition.attributeConstraint = 'None';
}

/** `names` must list every attribute of the ProductType once, in the new order. */
function reorder(productType: ProductType, names: readonly string[], field: string): void {
  const byName = new Map(productType.attributes.map((definition) => [definition.name, definition]));
  if (names.length !== byName.size || new Set(names).size !== names.length || !names.every((name) => byName.has(name))) {
    throw invalidOperation(`'${field}' must name every attribute of the ProductType exactly once.`);
  }
  productType.attributes = names.map((name) => byName.get(name) as AttributeDefinition);
}

/** The deprecated changeAttributeOrder sends whole AttributeDefinitions; their names give the order. */
function namesOfDefinitions(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_ATTRIBUTES)
    throw invalidInput("'attributes' must be an array of AttributeDefinitions.", { field: 'attributes' });
  return value.map((item, index) => attributeName((item as { name?: unknown } | null)?.name, `attributes[${index}].name`));
}

/**
 * The reference's actions on AttributeDefinitions (types/product-type/updates). Renames and removals
 * apply to products "in an eventually consistent way" in the reference; Herald applies them in the
 * update's transaction, the definition's `updatedAlongside` (products/ follows the product type's changes).
 */
export function attributeDefinitionActions(db: Queryable): ActionHandlers<ProductType> {
  return {
    async addAttributeDefinition(productType, action, { ctx }) {
      const added = await attributeDefinition(action.attribute, 'attribute', ctx.load);
      if (productType.attributes.some(({ name }) => name === added.name)) throw attributeDefinitionAlreadyExists(added.name, productType);
      if (productType.attributes.length >= MAX_ATTRIBUTES)
        throw invalidInput(`A ProductType has at most ${MAX_ATTRIBUTES} attributes.`, { field: 'attribute' });
      await assertNoTypeConflict(db, ctx.projectKey, [added], productType.id);
      productType.attributes.push(added);
    },
    removeAttributeDefinition(productType, action) {
      const removed = attributeNamed(productType, action.name, 'name');
      productType.attributes = productType.attributes.filter((definition) => definition !== removed);
    },
    async changeAttributeName(productType, action, { ctx }) {
      const definition = attributeNamed(productType, action.attributeName);
      const newName = attributeName(action.newAttributeName, 'newAttributeName');
      if (newName === definition.name) return;
      if (productType.attributes.some(({ name }) => name === newName)) throw attributeDefinitionAlreadyExists(newName, productType);
      await assertNoTypeConflict(db, ctx.projectKey, [{ ...definition, name: newName }], productType.id);
      definition.name = newName;
    },
    changeLabel(productType, action) {
      const label = attributeLabel(action.label, 'label');
      // "New value to set. Must not be empty."
      if (Object.keys(label).length === 0) throw invalidInput("'label' must not be empty.", { field: 'label' });
      attributeNamed(productType, action.attributeName).label = label;
    },
    setInputTip(productType, action) {
      const definition = attributeNamed(productType, action.attributeName);
      if (action.inputTip === undefined || action.inputTip === null) delete definition.inputTip;
      else definition.inputTip = localizedString(action.inputTip, 'inputTip');
    },
    changeInputHint(productType, action) {
      const definition = attributeNamed(productType, action.attributeName);
      if (action.newValue === undefined || action.newValue === null) throw invalidInput("'newValue' is required.", { field: 'newValue' });
      definition.inputHint = textInputHint(action.newValue, 'newValue');
    },
    changeIsSearchable(productType, action) {
      const definition = attributeNamed(productType, action.attributeName);
      const isSearchable = requiredBoolean(action.isSearchable, 'isSearchable');
      // AttributeNestedType "does not support isSearchable".
      if (isSearchable && definition.type.name === 'nested') throw invalidOperation(`The nested attribute '${definition.name}' does not support isSearchable.`);
      definition.isSearchable = isSearchable;
    },
    changeAttributeConstraint(productType, action) {
      changeConstraintToNone(attributeNamed(productType, action.attributeName), action.newValue);
    },
    changeAttributeOrderByName(productType, action) {
      reorder(productType, stringArray(action.attributeNames, 'attributeNames', undefined, MAX_ATTRIBUTES), 'attributeNames');
    },
    changeAttributeOrder(productType, action) {
      reorder(productType, namesOfDefinitions(action.attributes), 'attributes');
    },
  };
}
