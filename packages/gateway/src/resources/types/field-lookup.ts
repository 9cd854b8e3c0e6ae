import { invalidInput } from '@herald/model';
import type { Type, TypeFieldDefinition } from './type.js';

/** The Type's field definition named `name` (an action's `fieldName`); 400 InvalidInput if none. */
export function fieldNamed(type: Type, name: unknown): TypeFieldDefinition {
  const definition = type.fieldDefinitions.find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw invalidInput(`The Type '${type.key}' has no field definition ${JSON.stringify(name)}.`, { field: 'fieldName' });
  }
  return definition;
}
