import { invalidInput } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft } from '../shared/custom-fields.js';
import { asDraft, optionalKey, optionalString, requiredString, type Draft } from '../shared/validation.js';
import { booleanField, MAX_NAME_LENGTH, optionalLocalized, optionalPredicate, taxCategoryReference } from './fields.js';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod } from './shipping-method.js';
import { storeList } from './stores.js';
import { assertNoOtherDefault } from './uniqueness.js';
import { zoneRateList } from './zone-rates.js';

export type ShippingMethodFields = Omit<ShippingMethod, ServerFields>;

/** ShippingMethodDraft.name and changeName: a string, "Must not be empty". */
export function methodName(draft: Draft): string {
  const name = requiredString(draft, 'name', MAX_NAME_LENGTH);
  if (name.trim() === '') throw invalidInput("'name' must not be empty.", { field: 'name', invalidValue: name });
  return name;
}

/** Puts the optional fields of the draft that are given on `fields`. */
function withOptionals(fields: ShippingMethodFields, draft: Draft): void {
  const optionals: Partial<ShippingMethodFields> = {
    key: optionalKey(draft.key),
    localizedName: optionalLocalized(draft.localizedName, 'localizedName'),
    description: optionalString(draft.description, 'description'),
    localizedDescription: optionalLocalized(draft.localizedDescription, 'localizedDescription'),
    predicate: optionalPredicate(draft.predicate),
    carrier: optionalString(draft.carrier, 'carrier', 256),
  };
  for (const [name, value] of Object.entries(optionals)) {
    if (value !== undefined) Object.assign(fields, { [name]: value });
  }
}

/** Validates a ShippingMethodDraft (types/shipping-method/ShippingMethodDraft.raml) into the document's fields. */
export async function shippingMethodFromDraft(body: unknown, ctx: RequestContext, documents: DocumentStore): Promise<ShippingMethodFields> {
  const draft = asDraft(body, 'ShippingMethodDraft');
  const fields: ShippingMethodFields = {
    name: methodName(draft),
    taxCategory: await taxCategoryReference(ctx.load, draft.taxCategory, 'taxCategory'),
    zoneRates: await zoneRateList(draft.zoneRates, ctx.load, ctx.project),
    // ShippingMethodDraft: `active` defaults to true; `isDefault` is required.
    active: draft.active === undefined || draft.active === null ? true : booleanField(draft.active, 'active'),
    isDefault: booleanField(draft.isDefault, 'isDefault'),
    stores: await storeList(draft.stores, 'stores', ctx.load),
  };
  withOptionals(fields, draft);
  const custom = await customFromDraft(draft.custom, SHIPPING_METHOD_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  if (fields.isDefault) await assertNoOtherDefault(documents.db, ctx.projectKey);
  return fields;
}
