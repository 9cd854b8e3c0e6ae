/**
 * §4.3 "Other GraphQL additions": `setBusinessUnit` on Cart and My Cart update actions (with
 * every other cart action, cart-updates.ts). The Cart type shows what business units need. Beyond what the spec
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
`;
