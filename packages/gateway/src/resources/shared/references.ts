import { ApiError, invalidInput, type BaseResource, type KeyReference } from '@herald/model';
import type { Locator } from '@herald/store';

/** A ResourceIdentifier (§2.1: `id` or `key`, optional `typeId`; null counts as absent) turned into a store locator. */
export function identifierLocator(value: unknown, field: string, typeId: string): Locator {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be a ResourceIdentifier with 'id' or 'key'.`, { field });
  }
  const identifier = value as { typeId?: unknown; id?: unknown; key?: unknown };
  // null is absent, as for `id` and `key`: GraphQL clients send unset input fields as null.
  if (identifier.typeId !== undefined && identifier.typeId !== null && identifier.typeId !== typeId) {
    throw invalidInput(`'${field}.typeId' must be '${typeId}'.`, { field, invalidValue: identifier.typeId });
  }
  if (typeof identifier.id === 'string') return { id: identifier.id };
  if (typeof identifier.key === 'string') return { key: identifier.key };
  throw invalidInput(`'${field}' must have an 'id' or a 'key'.`, { field });
}

/** The platform's error for a reference to a resource that does not exist (400, not 404). */
export function referencedResourceNotFound(typeId: string, locator: Locator): ApiError {
  const what = 'id' in locator ? `id '${locator.id}'` : `key '${locator.key}'`;
  return new ApiError(400, {
    code: 'ReferencedResourceNotFound',
    message: `The referenced ${typeId} with ${what} was not found.`,
    typeId,
    ...locator,
  });
}

/** Reads a document by type and locator (the request's reader or the store). */
export type Load = <T extends BaseResource>(typeId: string, locator: Locator) => Promise<T | undefined>;

export async function loadReferenced<T extends BaseResource>(load: Load, typeId: string, locator: Locator): Promise<T> {
  const doc = await load<T>(typeId, locator);
  if (doc === undefined) throw referencedResourceNotFound(typeId, locator);
  return doc;
}

/** Stores and business units are referenced by key on carts and quote requests (KeyReference). */
export async function keyReference<TypeId extends string>(load: Load, typeId: TypeId, value: unknown, field: string): Promise<KeyReference<TypeId>> {
  const locator = identifierLocator(value, field, typeId);
  const doc = await loadReferenced(load, typeId, locator);
  if (doc.key === undefined) throw invalidInput(`The ${typeId} referenced by '${field}' has no key.`, { field });
  return { typeId, key: doc.key };
}
