/** What other resources (products, issue 28) use of ProductTypes. */
export { attributeValueError, attributesError, type AttributeValueError, type NestedAttributeTypes } from './attribute-value.js';
export { loadNestedAttributeTypes } from './nested-types.js';
export { productTypeDefinition } from './definition.js';
export { storedProductUsage, type ProductTypeUsage } from './usage.js';
export { PRODUCT_TYPE_TYPE_ID, type AttributeDefinition, type AttributeType, type ProductType } from './product-type.js';
