/**
 * Fields Herald answers with that the official reference types do not declare, accepted by the
 * reference conformance test for a stated reason. Keyed by reference type name (the entry applies
 * to the type's subtypes too). Nothing goes here only because Herald happens to send it.
 */
export const ACCEPTED_EXTRA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // The product spec (shared/spec/commerce-api.md, the authority where it speaks) requires:
  // §2.2 BusinessUnit: `ancestors` [BusinessUnit!]!, "ordered from the Company down to the direct
  // parent Division of this unit" (the reference has no such field).
  BusinessUnit: ['ancestors'],
  // §2.1 common conventions: `createdAt`, `lastModifiedAt` "set by the server on creation or
  // modification" — the official Project has only createdAt; Herald keeps the spec's pair.
  Project: ['lastModifiedAt'],
  // The same §2.1 pair on the buyer's view of a payment (`/me/payments`): the official MyPayment has neither.
  MyPayment: ['createdAt', 'lastModifiedAt'],
  // §6.1 Messages for business units: BusinessUnitStatusChanged carries `status` (the reference
  // names it `active`; Herald sends both).
  BusinessUnitStatusChangedMessage: ['status'],

  // The reference's own example answers carry it in every `createdBy`/`lastModifiedBy`
  // (api-specs/api/examples/*.json at the pinned commit), though ClientLogging does not declare it.
  ClientLogging: ['isPlatformClient'],
};
