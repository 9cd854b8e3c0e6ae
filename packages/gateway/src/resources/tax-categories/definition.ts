import { invalidOperation, requiredField } from '@herald/model';
import type { DocumentStore, Queryable, ServerFields } from '@herald/store';
import { referenceExists, referencingType } from '../shared/reference-exists.js';
import { asDraft, optionalKey, optionalString, requiredString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { TAX_CATEGORY_TYPE_ID, type TaxCategory, type TaxRate } from './tax-category.js';
import { assertDistinctRates, rateIndex, rateList, taxRateDraft, withNewId } from './tax-rates.js';

/**
 * TaxCategoryDraft.name / changeName: "If the provided name is used by another TaxCategory in the
 * Project, an InvalidOperation error is returned." A read, not under a lock (the versioned template
 * writes in one statement): two creates with one name at the same moment can both pass, an
 * accepted race as for the States' type checks.
 */
async function assertNameFree(db: Queryable, projectKey: string, name: string, selfId?: string): Promise<void> {
  const found = await db.query(`SELECT 1 FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @> $4::jsonb LIMIT 1`, [
    projectKey,
    TAX_CATEGORY_TYPE_ID,
    selfId ?? '',
    JSON.stringify({ name }),
  ]);
  if (found.rows.length > 0) throw invalidOperation(`The name '${name}' is used by another TaxCategory of the project.`);
}

/**
 * Where the reference's resources hold a TaxCategoryReference as their own setting: Product and
 * ShippingMethod `taxCategory`, a Cart's CustomLineItem `taxCategory`. Orders keep the rate they
 * were taxed with, so they do not hold a tax category in use.
 */
const HOLDERS = ['product', 'shipping-method', 'cart'] as const;

function holding(id: string): string {
  const target = JSON.stringify(id);
  return `$ ? (@.taxCategory.id == ${target} || @.customLineItems[*].taxCategory.id == ${target})`;
}

function requiredRateDraft(value: unknown): ReturnType<typeof taxRateDraft> {
  if (value === undefined || value === null) throw requiredField('taxRate');
  return taxRateDraft(value, 'taxRate');
}

/** Puts `rates` on the category once they are distinct by location and key (DuplicateField otherwise). */
function setRates(category: TaxCategory, rates: TaxRate[]): void {
  assertDistinctRates(rates);
  category.rates = rates;
}

/**
 * `/{projectKey}/tax-categories` (reference: resources/tax-categories.raml, types/tax-category).
 * The reference has no TaxCategory messages: changes are notified only. `documents` answers the
 * name and in-use checks.
 */
export function taxCategoryDefinition(documents: DocumentStore): ResourceDefinition<TaxCategory> {
  return {
    typeId: TAX_CATEGORY_TYPE_ID,
    path: 'tax-categories',
    // resources/tax-categories.raml securedBy: view_tax_categories or view_products; manage alike.
    scopes: { view: ['view_tax_categories', 'view_products'], manage: ['manage_tax_categories', 'manage_products'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'TaxCategoryDraft');
      const fields: Omit<TaxCategory, ServerFields> = { name: requiredString(draft, 'name'), rates: rateList(draft.rates, 'rates') };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      const description = optionalString(draft.description, 'description');
      if (description !== undefined) fields.description = description;
      await assertNameFree(documents.db, ctx.projectKey, fields.name);
      return fields;
    },

    /** resources/tax-categories.raml delete: "If the TaxCategory is referenced by a resource, a ReferenceExists error is returned." */
    async assertDeletable(category, tx, ctx) {
      const holder = await referencingType(tx, ctx.projectKey, holding(category.id), HOLDERS);
      if (holder !== undefined) {
        throw referenceExists(`The TaxCategory '${category.name}' is used by a ${holder}; change that first.`, holder);
      }
    },

    actions: {
      addTaxRate(category, action) {
        const added = withNewId(requiredRateDraft(action.taxRate), category.rates);
        setRates(category, [...category.rates, added]);
      },
      removeTaxRate(category, action) {
        const index = rateIndex(category.rates, action);
        category.rates = category.rates.filter((_, position) => position !== index);
      },
      /** The replaced rate keeps its id: carts that recorded it still name the rate of that location. */
      replaceTaxRate(category, action) {
        const index = rateIndex(category.rates, action);
        const replacement = requiredRateDraft(action.taxRate);
        setRates(
          category,
          category.rates.map((rate, position) => (position === index ? { id: rate.id, ...replacement } : rate)),
        );
      },
      async changeName(category, action, { ctx }) {
        const name = requiredString(action, 'name');
        if (name !== category.name) await assertNameFree(documents.db, ctx.projectKey, name, category.id);
        category.name = name;
      },
      setKey(category, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete category.key;
        else category.key = key;
      },
      setDescription(category, action) {
        const description = optionalString(action.description, 'description');
        if (description === undefined) delete category.description;
        else category.description = description;
      },
    },
  };
}
