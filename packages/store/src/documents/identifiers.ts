import type { BaseResource, UserProvidedIdentifiers } from '@herald/model';

/**
 * §6.2 `resourceUserProvidedIdentifiers`: the identifiers a user chose for the resource, sent with
 * every delivery so consumers need not look the resource up. Spread into payloads: empty when the
 * resource has none.
 */
export function userProvidedIdentifiers(doc: BaseResource): { resourceUserProvidedIdentifiers?: UserProvidedIdentifiers } {
  const source = doc as BaseResource & Partial<Record<'customerNumber' | 'orderNumber' | 'externalId', unknown>>;
  const identifiers: UserProvidedIdentifiers = {};
  if (typeof source.key === 'string') identifiers.key = source.key;
  if (typeof source.customerNumber === 'string') identifiers.customerNumber = source.customerNumber;
  if (typeof source.orderNumber === 'string') identifiers.orderNumber = source.orderNumber;
  if (typeof source.externalId === 'string') identifiers.externalId = source.externalId;
  return Object.keys(identifiers).length === 0 ? {} : { resourceUserProvidedIdentifiers: identifiers };
}
