import { isDeepStrictEqual } from 'node:util';
import { ApiError, invalidOperation } from '@herald/model';
import type { AttributeDefinition } from '../product-types/index.js';
import { allVariants, type Attribute, type ProductData } from './product.js';

/*
 * The AttributeConstraintEnum of the reference across one data version's variants:
 * Unique (400 DuplicateAttributeValue), CombinationUnique (400 DuplicateAttributeValues) and
 * SameForAll (the reference names no error code for it: 400 InvalidOperation).
 */

function valueOf(attributes: readonly Attribute[], name: string): unknown {
  return attributes.find((attribute) => attribute.name === name)?.value;
}

function assertUnique(data: ProductData, definition: AttributeDefinition): void {
  const values = allVariants(data)
    .map(({ attributes }) => valueOf(attributes, definition.name))
    .filter((value) => value !== undefined);
  const duplicate = values.find((value, index) => values.findIndex((other) => isDeepStrictEqual(other, value)) !== index);
  if (duplicate === undefined) return;
  throw new ApiError(400, {
    code: 'DuplicateAttributeValue',
    message: "Attribute can't have the same value in a different variant.",
    attribute: { name: definition.name, value: duplicate },
  });
}

function assertCombinationUnique(data: ProductData, definitions: readonly AttributeDefinition[]): void {
  if (definitions.length === 0) return;
  // A variant without any of the attributes has no combination to compare.
  const combinations = allVariants(data)
    .map(({ attributes }) => definitions.flatMap(({ name }) => (valueOf(attributes, name) === undefined ? [] : [{ name, value: valueOf(attributes, name) }])))
    .filter((combination) => combination.length > 0);
  const duplicate = combinations.find((combination, index) => combinations.findIndex((other) => isDeepStrictEqual(other, combination)) !== index);
  if (duplicate === undefined) return;
  throw new ApiError(400, { code: 'DuplicateAttributeValues', message: 'The set of attributes must be unique across all variants.', attributes: duplicate });
}

function assertSameForAll(data: ProductData, definition: AttributeDefinition): void {
  const [first, ...others] = allVariants(data).map(({ attributes }) => valueOf(attributes, definition.name));
  if (others.every((value) => isDeepStrictEqual(value, first))) return;
  throw invalidOperation(`The attribute '${definition.name}' is SameForAll: every variant must have the same value.`);
}

/** Checks every constraint of `definitions` (the ProductType's) on `data`. */
export function assertAttributeConstraints(data: ProductData, definitions: readonly AttributeDefinition[]): void {
  for (const definition of definitions) {
    if (definition.attributeConstraint === 'Unique') assertUnique(data, definition);
    if (definition.attributeConstraint === 'SameForAll') assertSameForAll(data, definition);
  }
  assertCombinationUnique(
    data,
    definitions.filter(({ attributeConstraint }) => attributeConstraint === 'CombinationUnique'),
  );
}
