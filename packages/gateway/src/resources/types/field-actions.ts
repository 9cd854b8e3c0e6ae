import { invalidInput, invalidOperation } from '@herald/model';
import type { ActionHandlers } from '../shared/update-actions.js';
import { localizedString, stringArray } from '../shared/validation.js';
import { inputHint } from './field-definitions.js';
import { fieldNamed } from './field-lookup.js';
import type { FieldType, Type } from './type.js';

/** Field types whose values are text: the only ones an `inputHint` applies to (reference: TypeTextInputHint). */
function isTextType(type: FieldType): boolean {
  const element = type.name === 'Set' ? type.elementType : type;
  return element.name === 'String' || element.name === 'LocalizedString';
}

/** The reference's field-definition actions besides add and remove (types/type/updates). */
export const fieldDefinitionActions: ActionHandlers<Type> = {
  changeLabel(type, action) {
    fieldNamed(type, action.fieldName).label = localizedString(action.label, 'label');
  },
  /** Deprecated in the reference in favour of changeLabel; the same change. */
  changeFieldDefinitionLabel(type, action) {
    fieldNamed(type, action.fieldName).label = localizedString(action.label, 'label');
  },
  /** `fieldNames` must name every field definition once, in the new order. */
  changeFieldDefinitionOrder(type, action) {
    const names = stringArray(action.fieldNames, 'fieldNames');
    const byName = new Map(type.fieldDefinitions.map((definition) => [definition.name, definition]));
    if (names.length !== byName.size || new Set(names).size !== names.length || !names.every((name) => byName.has(name))) {
      throw invalidOperation("'fieldNames' must name every field definition of the Type exactly once.");
    }
    type.fieldDefinitions = names.map((name) => byName.get(name) as Type['fieldDefinitions'][number]);
  },
  changeInputHint(type, action) {
    const definition = fieldNamed(type, action.fieldName);
    if (action.inputHint === undefined || action.inputHint === null) throw invalidInput("'inputHint' is required.", { field: 'inputHint' });
    if (!isTextType(definition.type)) {
      throw invalidOperation(
        `The field definition '${definition.name}' is of type ${definition.type.name}; an inputHint applies to String and LocalizedString fields only.`,
      );
    }
    definition.inputHint = inputHint(action.inputHint, 'inputHint');
  },
};
