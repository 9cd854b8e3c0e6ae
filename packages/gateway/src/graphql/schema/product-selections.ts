/**
 * Product Selections in GraphQL (issue 28), in the official schema's names: the Query fields
 * `productSelection(id, key)` and `productSelections(where, sort, limit, offset)`, the
 * ProductSelection type with its `productRefs` page (the REST `/product-selections/{id}/products`),
 * and `Store.productSelections` (ProductSelectionSetting). The same scopes as REST:
 * view_product_selections (manage_product_selections implies it); a `product` of an assignment
 * needs view_products, and is null without it, as REST leaves it unexpanded.
 */
export const productSelectionTypeDefs = /* GraphQL */ `
  enum ProductSelectionMode {
    Individual
    IndividualExclusion
  }

  "The reference's ProductVariantSelection: includeOnly or includeAllExcept, with its SKUs."
  interface ProductVariantSelection {
    type: String!
    skus: [String!]!
  }

  type ProductVariantSelectionIncludeOnly implements ProductVariantSelection {
    type: String!
    skus: [String!]!
  }

  type ProductVariantSelectionIncludeAllExcept implements ProductVariantSelection {
    type: String!
    skus: [String!]!
  }

  type ProductVariantExclusion {
    skus: [String!]!
  }

  type ProductOfSelection {
    productRef: Reference!
    "view_products; null without it."
    product: Product
    variantSelection: ProductVariantSelection
    variantExclusion: ProductVariantExclusion
  }

  type ProductOfSelectionQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [ProductOfSelection!]!
  }

  type ProductSelection {
    id: String!
    version: Long!
    key: String
    name(locale: Locale, acceptLanguage: [Locale!]): String
    nameAllLocales: [LocalizedString!]!
    productCount: Int!
    mode: ProductSelectionMode!
    "The products assigned to the selection; limit 1 to 500 (default 20)."
    productRefs(where: String, sort: [String!], limit: Int, offset: Int): ProductOfSelectionQueryResult!
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type ProductSelectionQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [ProductSelection!]!
  }

  type ProductSelectionSetting {
    productSelectionRef: Reference!
    "view_product_selections; null without it."
    productSelection: ProductSelection
    active: Boolean!
  }

  extend type Store {
    productSelections: [ProductSelectionSetting!]!
  }

  extend type Query {
    "view_product_selections. One of id and key."
    productSelection(id: String, key: String): ProductSelection
    "view_product_selections. limit 1 to 500 (default 20), offset up to 10000."
    productSelections(where: String, sort: [String!], limit: Int, offset: Int): ProductSelectionQueryResult!
  }
`;
