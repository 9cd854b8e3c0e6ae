/**
 * §4.3 "Other GraphQL additions": `setBusinessUnit` on Cart and My Cart update actions. Herald's
 * GraphQL subset exposes carts only as far as business units need them.
 */
export const cartTypeDefs = /* GraphQL */ `
  type Cart {
    id: String!
    version: Long!
    key: String
    cartState: String!
    customerId: String
    anonymousId: String
    "A KeyReference (§2.2 business unit links)."
    businessUnit: KeyReference
    store: KeyReference
    createdAt: DateTime!
    lastModifiedAt: DateTime!
  }

  input SetCartBusinessUnit {
    businessUnit: ResourceIdentifierInput!
  }

  "Exactly one member per action."
  input CartUpdateAction {
    setBusinessUnit: SetCartBusinessUnit
  }

  "Exactly one member per action; the acting customer must be an associate of the unit."
  input MyCartUpdateAction {
    setBusinessUnit: SetCartBusinessUnit
  }
`;
