import { invalidInput, requiredField } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { followProductTypeUpdate } from '../products/follow-product-type.js';
import { holdProductTypeExclusively } from '../products/type-guard.js';
import { referenceExists } from '../shared/reference-exists.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { attributeDefinitionActions } from './attribute-actions.js';
import { attributeDefinitions } from './attribute-definitions.js';
import { enumActions } from './enum-actions.js';
import { PRODUCT_TYPE_TYPE_ID, type ProductType } from './product-type.js';
import { assertNoTypeConflict } from './type-conflicts.js';
import { storedProductUsage, type ProductTypeUsage } from './usage.js';

/** ProductTypeDraft.name and .description: required strings (the reference states no length; Herald's string bound). */
function requiredText(value: unknown, field: string): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length > 4096)
    throw invalidInput(`'${field}' must be a string of at most 4096 characters.`, { field, invalidValue: value });
  return value;
}

/**
 * `/{projectKey}/product-types` (reference: resources/product-types.raml, types/product-type). The
 * reference has no ProductType messages: subscribers get the change notifications only. `usage`
 * answers the rules that depend on products (the delete check, removing a required enum value).
 */
export function productTypeDefinition(documents: DocumentStore, usage: ProductTypeUsage = storedProductUsage): ResourceDefinition<ProductType> {
  return {
    typeId: PRODUCT_TYPE_TYPE_ID,
    path: 'product-types',
    // resources/product-types.raml `securedBy`: the product scopes grant product types too.
    scopes: { view: ['view_product_types', 'view_products'], manage: ['manage_product_types', 'manage_products'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'ProductTypeDraft');
      const name = requiredText(draft.name, 'name');
      const fields: Omit<ProductType, ServerFields> = {
        name,
        description: requiredText(draft.description, 'description'),
        attributes: await attributeDefinitions(draft.attributes, name, ctx.load),
      };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      await assertNoTypeConflict(documents.db, ctx.projectKey, fields.attributes);
      return fields;
    },

    /** A ProductType that products use, or that another ProductType nests, is not deleted (400 ReferenceExists). */
    async assertDeletable(productType, tx, ctx) {
      // Product creates in flight commit first, and are counted (products/type-guard.ts).
      await holdProductTypeExclusively(tx, ctx.projectKey, productType.id);
      const user = await usage.referencedBy(tx, ctx.projectKey, productType.id);
      if (user !== undefined) {
        throw referenceExists(`Can not delete a product-type while it is referenced by at least one ${user}.`, user);
      }
    },

    actions: {
      changeName(productType, action) {
        productType.name = requiredText(action.name, 'name');
      },
      changeDescription(productType, action) {
        productType.description = requiredText(action.description, 'description');
      },
      setKey(productType, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete productType.key;
        else productType.key = key;
      },
      ...attributeDefinitionActions(documents.db),
      ...enumActions(documents.db, usage),
    },

    // Renamed, re-keyed, relabelled and removed attributes and enum values reach the products of
    // the type in the update's transaction: the type never commits without its products following.
    // Product creates in flight commit first and are followed too (products/type-guard.ts).
    async updatedAlongside(tx, productType, actions, ctx) {
      await holdProductTypeExclusively(tx, ctx.projectKey, productType.id);
      await followProductTypeUpdate(documents, tx, ctx.write, productType.id, actions);
    },
  };
}
