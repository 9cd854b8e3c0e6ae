/** §2.1: a reference to another resource; `obj` is present only after successful expansion. */
export interface Reference<TypeId extends string = string> {
  typeId: TypeId;
  id: string;
  obj?: unknown;
}

/** A reference by key (GraphQL `KeyReference`). */
export interface KeyReference<TypeId extends string = string> {
  typeId: TypeId;
  key: string;
}

/** §2.1: identifies a resource by `id` or by `key` (one of them is required). */
export interface ResourceIdentifier<TypeId extends string = string> {
  typeId?: TypeId;
  id?: string;
  key?: string;
}

/** A Custom Object's identity: its key is unique only within its container (reference type ContainerAndKey). */
export interface ContainerAndKey {
  key: string;
  container: string;
}

/**
 * §6.2: identifiers the user chose for the resource, sent beside `resource` in messages and
 * deliveries (structure of the reference type UserProvidedIdentifiers; every field optional, `{}`
 * for a resource that has none).
 */
export interface UserProvidedIdentifiers {
  key?: string;
  externalId?: string;
  orderNumber?: string;
  customerNumber?: string;
  /** The SKU of a product variant (resources such as inventory entries and standalone prices). */
  sku?: string;
  /** A product's (or category's) slug. */
  slug?: LocalizedString;
  /** A Custom Object's container and key. */
  containerAndKey?: ContainerAndKey;
}

/** Who made a change (`createdBy` / `lastModifiedBy`, beta in §2.1). */
export interface Initiator {
  isPlatformClient?: boolean;
  clientId?: string;
  externalUserId?: string;
  customer?: Reference<'customer'>;
  anonymousId?: string;
  associate?: Reference<'customer'>;
}

/** Fields every versioned resource document carries (§2.1). */
export interface BaseResource {
  id: string;
  version: number;
  key?: string;
  createdAt: string;
  lastModifiedAt: string;
  createdBy?: Initiator;
  lastModifiedBy?: Initiator;
}

export type LocalizedString = Record<string, string>;

/** §2.1 Custom Fields as stored on a resource. */
export interface CustomFields {
  type: Reference<'type'>;
  fields: Record<string, unknown>;
}
