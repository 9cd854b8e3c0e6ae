import type { BaseResource, ContainerAndKey, LocalizedString, UserProvidedIdentifiers } from '@herald/model';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A LocalizedString: an object of strings (a slug). */
function localizedString(value: unknown): LocalizedString | undefined {
  if (!isObject(value)) return undefined;
  return Object.values(value).every((text) => typeof text === 'string') ? (value as LocalizedString) : undefined;
}

/** The slug of a product's current projection, or a resource's own `slug` (a category's). */
function slugOf(doc: Fields): LocalizedString | undefined {
  const masterData = doc.masterData;
  const current = isObject(masterData) && isObject(masterData.current) ? masterData.current : undefined;
  return localizedString(current?.slug ?? doc.slug);
}

/** A Custom Object (`key-value-document`) is identified by its container and key together. */
function containerAndKeyOf(doc: Fields): ContainerAndKey | undefined {
  return typeof doc.container === 'string' && typeof doc.key === 'string' ? { key: doc.key, container: doc.container } : undefined;
}

/**
 * §6.2 `resourceUserProvidedIdentifiers`: the identifiers a user chose for the resource, sent with
 * every message and change notification so consumers need not look the resource up. Structure and
 * field order of the reference type UserProvidedIdentifiers; always present, `{}` when the resource
 * has none (as in the reference's MessageDeliveryPayload example). Spread into payloads.
 */
export function userProvidedIdentifiers(doc: BaseResource): { resourceUserProvidedIdentifiers: UserProvidedIdentifiers } {
  const source = doc as unknown as Fields;
  const identifiers: UserProvidedIdentifiers = {};
  const containerAndKey = containerAndKeyOf(source);
  // A Custom Object's key alone is unique only within its container: containerAndKey says it.
  if (typeof source.key === 'string' && containerAndKey === undefined) identifiers.key = source.key;
  if (typeof source.externalId === 'string') identifiers.externalId = source.externalId;
  if (typeof source.orderNumber === 'string') identifiers.orderNumber = source.orderNumber;
  if (typeof source.customerNumber === 'string') identifiers.customerNumber = source.customerNumber;
  if (typeof source.sku === 'string') identifiers.sku = source.sku;
  const slug = slugOf(source);
  if (slug !== undefined) identifiers.slug = slug;
  if (containerAndKey !== undefined) identifiers.containerAndKey = containerAndKey;
  return { resourceUserProvidedIdentifiers: identifiers };
}

/** Custom Objects' resource type id (§2.4). */
export const CUSTOM_OBJECT_TYPE_ID = 'key-value-document';

/**
 * The value of the `key` column, by which a document is found with a `{ key }` locator and which is
 * unique per project and type: the document's `key`, except for a Custom Object, whose key is
 * unique only within its container (reference: CustomObject) and which is therefore found by
 * `containerKey(container, key)`.
 */
export function lookupKey(typeId: string, doc: BaseResource): string | null {
  const source = doc as unknown as Fields;
  if (typeId === CUSTOM_OBJECT_TYPE_ID) {
    const containerAndKey = containerAndKeyOf(source);
    return containerAndKey === undefined ? null : containerKey(containerAndKey.container, containerAndKey.key);
  }
  return typeof source.key === 'string' ? source.key : null;
}

/** A Custom Object's lookup key. Neither part may contain `/` (pattern `^[-_~.a-zA-Z0-9]+$`), so it is unambiguous. */
export function containerKey(container: string, key: string): string {
  return `${container}/${key}`;
}
