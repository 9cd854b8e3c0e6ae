import { PERMISSIONS } from '../../resources/associates/permissions.js';

/**
 * Associate roles in GraphQL (issue 27). The official SDL's object type is `AssociateRole`, but
 * §2.2 gives that name to the enum of the spec's roles (`Admin`, `Buyer`), and the spec wins:
 * the resource is `AssociateRoleResource` here. Its enums and the assignment types use the
 * reference's names (`Permission`, `AssociateRoleInheritanceMode`, `BusinessUnitAssociateMode`).
 */
export const associateRoleTypeDefs = /* GraphQL */ `
  "The reference's Permission enum."
  enum Permission {
${PERMISSIONS.map((permission) => `    ${permission}`).join('\n')}
  }

  enum AssociateRoleInheritanceMode {
    Enabled
    Disabled
  }

  enum BusinessUnitAssociateMode {
    Explicit
    ExplicitAndFromParent
  }

  "An associate role of the project (the official AssociateRole type; see the note on the name)."
  type AssociateRoleResource {
    id: String!
    version: Long!
    key: String!
    name: String
    buyerAssignable: Boolean!
    permissions: [Permission!]!
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type AssociateRoleQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [AssociateRoleResource!]!
  }

  "A role of an associate in a unit: the built-in Admin or Buyer, or a stored role (associateRole null for the built-in ones)."
  type AssociateRoleAssignment {
    associateRoleRef: KeyReference!
    associateRole: AssociateRoleResource
    inheritance: AssociateRoleInheritanceMode!
  }

  input AssociateRoleAssignmentDraft {
    associateRole: ResourceIdentifierInput!
    "Default Disabled."
    inheritance: AssociateRoleInheritanceMode
  }

  "An assignment a unit inherits, with the ancestor it comes from."
  type InheritedAssociateRoleAssignment {
    associateRoleRef: KeyReference!
    associateRole: AssociateRoleResource
    sourceRef: KeyReference!
    source: BusinessUnit
  }

  type InheritedAssociate {
    associateRoleAssignments: [InheritedAssociateRoleAssignment!]!
    customerRef: Reference!
    "Needs view_customers, except for the token's own customer."
    customer: Customer
  }

  input AssociateRoleDraft {
    key: String!
    name: String
    buyerAssignable: Boolean
    permissions: [Permission!]
    custom: CustomFieldsDraft
  }

  "Exactly one member per action."
  input AssociateRoleUpdateAction {
    setName: SetAssociateRoleName
    changeBuyerAssignable: ChangeAssociateRoleBuyerAssignable
    addPermission: AddAssociateRolePermission
    removePermission: RemoveAssociateRolePermission
    setPermissions: SetAssociateRolePermissions
    setCustomField: SetAssociateRoleCustomField
    setCustomType: SetAssociateRoleCustomType
  }

  input SetAssociateRoleName {
    name: String
  }

  input ChangeAssociateRoleBuyerAssignable {
    buyerAssignable: Boolean!
  }

  input AddAssociateRolePermission {
    permission: Permission!
  }

  input RemoveAssociateRolePermission {
    permission: Permission!
  }

  input SetAssociateRolePermissions {
    permissions: [Permission!] = []
  }

  input SetAssociateRoleCustomField {
    name: String!
    "JSON-encoded; absent or null removes the field."
    value: String
  }

  input SetAssociateRoleCustomType {
    fields: [CustomFieldInput!]
    type: ResourceIdentifierInput
    typeKey: String
    typeId: String
  }
`;
