/**
 * §4.3 "Other GraphQL additions": `setBusinessUnit` on Cart and My Cart update actions. Herald's
 * GraphQL subset exposes carts only as far as business units need them. Beyond what the spec
 * fixes, the fields are the official schema's: `cartState` a CartState, `store` the Store with
 * `storeRef` its KeyReference, and `businessUnitRef` beside the spec's KeyReference `businessUnit`
 * (the official schema's `businessUnit` is the BusinessUnit; §2.2 fixes it as a KeyReference).
 */
export const cartTypeDefs = /* GraphQL */ `
  enum CartState {
    Active
    Frozen
    Merged
    Ordered
  }

  type Cart {
    id: String!
    version: Long!
    key: String
    cartState: CartState!
    customerId: String
    anonymousId: String
    "A KeyReference (§2.2 business unit links)."
    businessUnit: KeyReference
    businessUnitRef: KeyReference
    "Needs view_stores, as REST reference expansion does; null without it (storeRef still names it)."
    store: Store
    storeRef: KeyReference
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
