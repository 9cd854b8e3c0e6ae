import { ADDRESS_TEXT_FIELDS } from '../../resources/shared/address.js';

/**
 * Types shared by Herald's GraphQL subset: scalars, references (§2.1), custom fields, addresses,
 * initiators, and the Store and Customer projections that business units link to. §2.1 names
 * these nested types without their field lists; the fields here are the ones Herald stores.
 * Where the spec is silent, names and types are the official schema's (the reference's
 * graphql/schema.sdl), so documents generated against it (graphql-codegen) validate here too:
 * e.g. `Address.country` is a `Country`, `Store.name(locale:)` takes a `Locale`.
 */
/** The Address text fields, from the list the REST and GraphQL validators share. */
const ADDRESS_TEXT_FIELD_LINES = ADDRESS_TEXT_FIELDS.map((field) => `    ${field}: String`).join('\n');

export const commonTypeDefs = /* GraphQL */ `
  "A whole number that may exceed 32 bits (versions, totals)."
  scalar Long

  "An ISO 8601 timestamp in UTC, as stored (e.g. 2025-01-01T00:00:00.000Z)."
  scalar DateTime

  "Any JSON value (custom field values)."
  scalar Json

  "A two-letter country code (ISO 3166-1 alpha-2), e.g. DE."
  scalar Country

  "A language tag (IETF BCP 47), e.g. en or de-CH."
  scalar Locale

  "§2.1: a reference by id."
  type Reference {
    typeId: String!
    id: String!
  }

  "§2.1: a reference by key (KeyReference)."
  type KeyReference {
    typeId: String!
    key: String!
  }

  "§2.1: identifies a resource by id or by key."
  input ResourceIdentifierInput {
    typeId: String
    id: String
    key: String
  }

  "Who created or last modified a resource (beta)."
  type Initiator {
    isPlatformClient: Boolean
    clientId: String
    externalUserId: String
    anonymousId: String
    customerRef: Reference
    associateRef: Reference
  }

  type RawCustomField {
    name: String!
    value: Json!
  }

  "§2.1 Custom Fields: the Type and the field values."
  type CustomFieldsType {
    typeRef: Reference!
    customFieldsRaw(includeNames: [String!], excludeNames: [String!]): [RawCustomField!]
  }

  "A custom field value, JSON-encoded: a string value is sent with its JSON quotes."
  input CustomFieldInput {
    name: String!
    value: String!
  }

  "The Type by typeId, typeKey or type, and the field values."
  input CustomFieldsDraft {
    typeId: String
    typeKey: String
    type: ResourceIdentifierInput
    fields: [CustomFieldInput!]
  }

  type Address {
    id: String
    key: String
${ADDRESS_TEXT_FIELD_LINES}
    country: Country!
    custom: CustomFieldsType
  }

  "An address as sent; its id is assigned by Herald."
  input AddressInput {
    key: String
${ADDRESS_TEXT_FIELD_LINES}
    country: Country!
    custom: CustomFieldsDraft
  }

  type LocalizedString {
    locale: Locale!
    value: String!
  }

  type Store {
    id: String!
    version: Long!
    key: String!
    name(locale: Locale): String
    nameAllLocales: [LocalizedString!]
    languages: [Locale!]
    createdAt: DateTime!
    lastModifiedAt: DateTime!
  }

  type Customer {
    id: String!
    version: Long!
    key: String
    email: String!
    firstName: String
    lastName: String
    isEmailVerified: Boolean!
    createdAt: DateTime!
    lastModifiedAt: DateTime!
  }
`;
