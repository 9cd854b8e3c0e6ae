import { ApiError } from '@herald/model';
import { attributeName } from './attribute-definitions.js';
import type { AttributeDefinition, ProductType } from './product-type.js';

/** The reference's AttributeNameDoesNotExist (400) for an action's attribute name the ProductType lacks. */
export function attributeNameDoesNotExist(name: string, productType: ProductType): ApiError {
  return new ApiError(400, {
    code: 'AttributeNameDoesNotExist',
    message: `Attribute definition for ${name} does not exist on type ${productType.name}.`,
    invalidAttributeName: name,
  });
}

/** The definition an action names in `field` (default `attributeName`), validated as an attribute name. */
export function attributeNamed(productType: ProductType, value: unknown, field = 'attributeName'): AttributeDefinition {
  const name = attributeName(value, field);
  const definition = productType.attributes.find((candidate) => candidate.name === name);
  if (definition === undefined) throw attributeNameDoesNotExist(name, productType);
  return definition;
}
