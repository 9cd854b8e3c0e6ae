import { BUSINESS_UNIT_ACTIONS, MY_BUSINESS_UNIT_ACTIONS, type BusinessUnitActionName } from '../../resources/business-units/actions.js';

const ADDRESS_SELECTOR = 'addressId: String\n    addressKey: String';
const TYPE_SELECTOR = 'type: ResourceIdentifierInput\n    typeKey: String\n    typeId: String';

/**
 * §4.3: the input object of each update-action member and its fields. Typed against the service's
 * action list, so an action without a GraphQL member (or the reverse) does not compile.
 */
const ACTION_INPUTS = {
  addAddress: ['AddBusinessUnitAddress', 'address: AddressInput!'],
  addAssociate: ['AddBusinessUnitAssociate', 'associate: AssociateDraft!'],
  addBillingAddressId: ['AddBusinessUnitBillingAddressId', ADDRESS_SELECTOR],
  addShippingAddressId: ['AddBusinessUnitShippingAddressId', ADDRESS_SELECTOR],
  addStore: ['AddBusinessUnitStore', 'store: ResourceIdentifierInput!'],
  changeAddress: ['ChangeBusinessUnitAddress', `${ADDRESS_SELECTOR}\n    address: AddressInput!`],
  changeAssociate: ['ChangeBusinessUnitAssociate', 'associate: AssociateDraft!'],
  changeName: ['ChangeBusinessUnitName', 'name: String!'],
  changeParentUnit: ['ChangeBusinessUnitParentUnit', 'parentUnit: ResourceIdentifierInput!'],
  changeStatus: ['ChangeBusinessUnitStatus', 'status: BusinessUnitStatus!'],
  removeAddress: ['RemoveBusinessUnitAddress', ADDRESS_SELECTOR],
  removeAssociate: ['RemoveBusinessUnitAssociate', 'customer: ResourceIdentifierInput!'],
  removeBillingAddressId: ['RemoveBusinessUnitBillingAddressId', ADDRESS_SELECTOR],
  removeShippingAddressId: ['RemoveBusinessUnitShippingAddressId', ADDRESS_SELECTOR],
  removeStore: ['RemoveBusinessUnitStore', 'store: ResourceIdentifierInput!'],
  setAddressCustomField: [
    'SetBusinessUnitAddressCustomField',
    `${ADDRESS_SELECTOR}\n    name: String!\n    "JSON-encoded; absent or null removes the field."\n    value: String`,
  ],
  setAddressCustomType: ['SetBusinessUnitAddressCustomType', `${ADDRESS_SELECTOR}\n    fields: [CustomFieldInput!]\n    ${TYPE_SELECTOR}`],
  setAssociates: ['SetBusinessUnitAssociates', 'associates: [AssociateDraft!] = []'],
  setContactEmail: ['SetBusinessUnitContactEmail', 'contactEmail: String'],
  setCustomField: ['SetBusinessUnitCustomField', 'name: String!\n    "JSON-encoded; absent or null removes the field."\n    value: String'],
  setCustomType: ['SetBusinessUnitCustomType', `fields: [CustomFieldInput!]\n    ${TYPE_SELECTOR}`],
  setDefaultBillingAddress: ['SetBusinessUnitDefaultBillingAddress', ADDRESS_SELECTOR],
  setDefaultShippingAddress: ['SetBusinessUnitDefaultShippingAddress', ADDRESS_SELECTOR],
  setStores: ['SetBusinessUnitStores', 'stores: [ResourceIdentifierInput!]!'],
  setStoreMode: ['SetBusinessUnitStoreMode', 'stores: [ResourceIdentifierInput!]\n    storeMode: String'],
} as const satisfies Record<BusinessUnitActionName, readonly [string, string]>;

/**
 * The input type of a member: `AddBusinessUnitAddress` for BusinessUnitUpdateAction, and for
 * MyBusinessUnitUpdateAction the official schema's own type of the same fields
 * (`AddMyBusinessUnitAddress`): §4.3 fixes the members and their fields, not these names.
 */
type ActionFlavour = 'BusinessUnit' | 'MyBusinessUnit';

function inputTypeName(member: BusinessUnitActionName, flavour: ActionFlavour): string {
  const name = ACTION_INPUTS[member][0];
  return flavour === 'BusinessUnit' ? name : name.replace('BusinessUnit', 'MyBusinessUnit');
}

function actionInputTypes(members: readonly BusinessUnitActionName[], flavour: ActionFlavour): string {
  return members.map((member) => `  input ${inputTypeName(member, flavour)} {\n    ${ACTION_INPUTS[member][1]}\n  }`).join('\n\n');
}

function actionUnion(description: string, members: readonly BusinessUnitActionName[], flavour: ActionFlavour): string {
  const fields = members.map((member) => `    ${member}: ${inputTypeName(member, flavour)}`).join('\n');
  return `  "${description}"\n  input ${flavour}UpdateAction {\n${fields}\n  }`;
}

const DRAFT_FIELDS = `
    key: String!
    name: String!
    contactEmail: String
    addresses: [AddressInput!]
    "Index into addresses."
    defaultBillingAddress: Int
    "Index into addresses."
    defaultShippingAddress: Int
    "Indices into addresses; default empty."
    shippingAddresses: [Int!]
    "Indices into addresses; default empty."
    billingAddresses: [Int!]
    custom: CustomFieldsDraft
    unitType: BusinessUnitType!
    "Explicit or FromParent; default Explicit for a Company, FromParent for a Division without stores."
    storeMode: String
    "Required for a Division; a Company has none."
    parentUnit: ResourceIdentifierInput`;

/** §2.2 and §4.3: the BusinessUnit type, its drafts, query result and update actions. */
export const businessUnitTypeDefs = /* GraphQL */ `
  enum BusinessUnitStatus {
    Active
    Inactive
  }

  enum BusinessUnitType {
    Company
    Division
  }

  enum AssociateRole {
    Admin
    Buyer
  }

  type Associate {
    "§2.2: the built-in roles among associateRoleAssignments."
    roles: [AssociateRole!]!
    "The reference's role assignments: the built-in Admin and Buyer, and stored associate roles."
    associateRoleAssignments: [AssociateRoleAssignment!]!
    customerRef: Reference
    "Needs view_customers, except for the token's own customer."
    customer: Customer
  }

  "§2.2's roles, or the reference's associateRoleAssignments (1 to 5), or both: at least one role."
  input AssociateDraft {
    roles: [AssociateRole!]
    associateRoleAssignments: [AssociateRoleAssignmentDraft!]
    customer: ResourceIdentifierInput!
  }

  "§2.2 (beta)."
  type BusinessUnit {
    id: String!
    version: Long!
    key: String!
    name: String!
    contactEmail: String
    addresses: [Address!]!
    defaultShippingAddress: Address
    defaultBillingAddress: Address
    defaultShippingAddressId: String
    defaultBillingAddressId: String
    shippingAddresses: [Address!]!
    billingAddresses: [Address!]!
    shippingAddressIds: [String!]!
    billingAddressIds: [String!]!
    status: BusinessUnitStatus!
    storesRef: [KeyReference!]
    "Needs view_stores, as REST reference expansion does; null without it (storesRef still names them)."
    stores: [Store!]
    "Explicit or FromParent."
    storeMode: String
    unitType: BusinessUnitType!
    associates: [Associate!]!
    "Whether the unit also counts the Enabled role assignments of its parent's associates."
    associateMode: BusinessUnitAssociateMode!
    "Only with associateMode ExplicitAndFromParent: the associates inherited up the tree."
    inheritedAssociates: [InheritedAssociate!]
    custom: CustomFieldsType
    parentUnitRef: KeyReference
    parentUnit: BusinessUnit
    "From the Company down to the direct parent of this unit."
    ancestors: [BusinessUnit!]!
    topLevelUnitRef: KeyReference
    topLevelUnit: BusinessUnit!
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type BusinessUnitQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    "Beta: whether the predicate matches any unit."
    exists: Boolean!
    results: [BusinessUnit!]!
  }

  type BusinessUnitConfiguration {
    myBusinessUnitStatusOnCreation: BusinessUnitStatus!
  }

  input BusinessUnitDraft {${DRAFT_FIELDS}
    stores: [ResourceIdentifierInput!]
    associates: [AssociateDraft!]
  }

  "BusinessUnitDraft without stores and associates: the creating customer becomes the Admin."
  input MyBusinessUnitDraft {${DRAFT_FIELDS}
  }

${actionInputTypes(BUSINESS_UNIT_ACTIONS, 'BusinessUnit')}

${actionInputTypes(MY_BUSINESS_UNIT_ACTIONS, 'MyBusinessUnit')}

${actionUnion('Exactly one member per action.', BUSINESS_UNIT_ACTIONS, 'BusinessUnit')}

${actionUnion('Exactly one member per action; for Admin associates.', MY_BUSINESS_UNIT_ACTIONS, 'MyBusinessUnit')}

  "The business units of the token's customer (associate of them)."
  type Me {
    businessUnit(id: String, key: String): BusinessUnit
    businessUnits(where: String, sort: [String!], limit: Int, offset: Int): BusinessUnitQueryResult!
  }
`;
