/**
 * Products, product projections and their search in GraphQL (issue 28), in the official schema's
 * names (the reference's graphql/schema.sdl: Product, ProductCatalogData, ProductData,
 * ProductVariant, ProductProjection, ProductSearchVariant, ProductProjectionSearchResult, the
 * FacetResult and RangeCount types). Herald serves the subset its REST products carry: no
 * product type, category, channel or customer group objects (their `…Ref` references are there),
 * no availability, assets or recurrence prices. A localized field with neither `locale` nor
 * `acceptLanguage` answers its first locale, as `Store.name` does.
 */
const LOCALIZED_ARGS = '(locale: Locale, acceptLanguage: [Locale!])';

const localizedFields = (names: readonly string[], required: ReadonlySet<string>): string =>
  names.map((name) => `    ${name}${LOCALIZED_ARGS}: String\n    ${name}AllLocales: [LocalizedString!]${required.has(name) ? '!' : ''}`).join('\n');

const PRODUCT_TEXT_FIELDS = localizedFields(['name', 'description', 'slug', 'metaTitle', 'metaKeywords', 'metaDescription'], new Set(['name', 'slug']));

/** The official ProductVariant.price arguments Herald selects by (no recurrence policies). */
const PRICE_ARGS = 'currency: Currency!, country: Country, customerGroupId: String, customerGroupAssignmentIds: [String!], channelId: String, date: DateTime';

/** The price fields shared by ProductPrice (Product) and ProductPriceSearch (projections). */
const PRICE_FIELDS = `
    id: String
    key: String
    value: BaseMoney!
    country: Country
    customerGroupRef: Reference
    channelRef: Reference
    validFrom: DateTime
    validUntil: DateTime
    tiers: [ProductPriceTier!]
    custom: CustomFieldsType`;

export const productTypeDefs = /* GraphQL */ `
  "An ISO 4217 currency code, e.g. EUR."
  scalar Currency

  interface BaseMoney {
    type: String!
    currencyCode: Currency!
    centAmount: Long!
    fractionDigits: Int!
  }

  type HighPrecisionMoney implements BaseMoney {
    type: String!
    currencyCode: Currency!
    preciseAmount: Long!
    centAmount: Long!
    fractionDigits: Int!
  }

  type ProductPriceTier {
    minimumQuantity: Int!
    value: BaseMoney!
  }

  type ProductPrice {${PRICE_FIELDS}
  }

  type ProductPriceSearch {${PRICE_FIELDS}
  }

  type ScopedPrice {
    id: String!
    value: BaseMoney!
    currentValue: BaseMoney!
    country: String
    customerGroupRef: Reference
    channelRef: Reference
    validFrom: DateTime
    validUntil: DateTime
  }

  type Dimensions {
    width: Int!
    height: Int!
  }

  type Image {
    url: String!
    dimensions: Dimensions!
    label: String
  }

  type ImageProductSearch {
    url: String!
    dimensions: Dimensions!
    label: String
  }

  type RawProductAttribute {
    name: String!
    value: Json!
  }

  type RawProductSearchAttribute {
    name: String!
    value: Json!
  }

  type ProductVariant {
    id: Int!
    key: String
    sku: String
    prices: [ProductPrice!]
    "The price the reference's price selection picks (resources/shared/price-selection.ts)."
    price(${PRICE_ARGS}): ProductPrice
    images: [Image!]!
    attributesRaw(includeNames: [String!], excludeNames: [String!]): [RawProductAttribute!]!
  }

  type ProductSearchVariant {
    id: Int!
    key: String
    sku: String
    prices: [ProductPriceSearch!]
    price(${PRICE_ARGS}): ProductPriceSearch
    images: [ImageProductSearch!]!
    attributesRaw(includeNames: [String!], excludeNames: [String!]): [RawProductSearchAttribute!]!
    isMatchingVariant: Boolean
    scopedPrice: ScopedPrice
    scopedPriceDiscounted: Boolean
  }

  type CategoryOrderHint {
    categoryId: String!
    orderHint: String!
  }

  type CategoryOrderHintProductSearch {
    categoryId: String!
    orderHint: String!
  }

  type SearchKeyword {
    text: String!
  }

  type SearchKeywords {
    locale: Locale!
    searchKeywords: [SearchKeyword!]!
  }

  "One of a product's two data versions (current, staged)."
  type ProductData {
${PRODUCT_TEXT_FIELDS}
    categoryOrderHint(categoryId: String!): String
    categoryOrderHints: [CategoryOrderHint!]!
    categoriesRef: [Reference!]!
    searchKeyword(locale: Locale!): [SearchKeyword!]
    searchKeywords: [SearchKeywords!]!
    masterVariant: ProductVariant!
    "Without the master variant."
    variants(skus: [String!], hasImages: Boolean): [ProductVariant!]!
    "The master variant first."
    allVariants(skus: [String!], hasImages: Boolean): [ProductVariant!]!
    "One of id, sku and key."
    variant(id: Int, sku: String, key: String): ProductVariant
    skus: [String!]!
  }

  type ProductCatalogData {
    current: ProductData
    staged: ProductData
    published: Boolean!
    hasStagedChanges: Boolean!
  }

  enum PriceMode {
    Embedded
    Standalone
  }

  type Product {
    id: String!
    key: String
    version: Long!
    productTypeRef: Reference!
    masterData: ProductCatalogData!
    skus: [String!]!
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    stateRef: Reference
    priceMode: PriceMode
    taxCategoryRef: Reference
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type ProductQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [Product!]!
  }

  type ProductProjection {
    id: String!
    key: String
    version: Long!
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    productTypeRef: Reference!
${PRODUCT_TEXT_FIELDS}
    categoryOrderHints: [CategoryOrderHintProductSearch!]!
    categoriesRef: [Reference!]!
    hasStagedChanges: Boolean!
    published: Boolean!
    masterVariant: ProductSearchVariant!
    "Without the master variant; onlyMatching keeps the variants the search marked as matching."
    variants(onlyMatching: Boolean): [ProductSearchVariant!]!
    allVariants(onlyMatching: Boolean): [ProductSearchVariant!]!
    taxCategoryRef: Reference
    stateRef: Reference
  }

  interface FacetResult {
    type: String!
  }

  type TermCount {
    term: String!
    count: Int!
    productCount: Int
  }

  type TermsFacetResult implements FacetResult {
    dataType: String!
    missing: Int!
    total: Int!
    other: Int!
    terms: [TermCount!]!
    type: String!
  }

  interface RangeCount {
    type: String!
  }

  type RangeCountDouble implements RangeCount {
    from: Float!
    fromStr: String!
    to: Float!
    toStr: String!
    count: Int!
    productCount: Int
    totalCount: Int!
    total: Float!
    min: Float!
    max: Float!
    mean: Float!
    type: String!
  }

  type RangeCountLong implements RangeCount {
    from: Long!
    fromStr: String!
    to: Long!
    toStr: String!
    count: Int!
    productCount: Int
    totalCount: Int!
    total: Long!
    min: Long!
    max: Long!
    mean: Float!
    type: String!
  }

  type RangeFacetResult implements FacetResult {
    dataType: String!
    ranges: [RangeCount!]!
    type: String!
  }

  "A filtered facet's count (REST's FilteredFacetResult)."
  type ValueFacetResult implements FacetResult {
    count: Int!
    productCount: Int
    type: String!
  }

  type FacetResultValue {
    facet: String!
    value: FacetResult!
  }

  type ProductProjectionSearchResult {
    offset: Int!
    count: Int!
    total: Int!
    results: [ProductProjection!]!
    facets: [FacetResultValue!]!
  }

  "Herald takes the string form (REST's facet expression); the model form is refused with InvalidInput."
  input SearchFacetInput {
    model: Json
    string: String
  }

  "Herald takes the string form (REST's filter expression); the model form is refused with InvalidInput."
  input SearchFilterInput {
    model: Json
    string: String
  }

  input PriceSelectorInput {
    currency: Currency!
    country: Country
    customerGroup: ReferenceInput
    "Herald's: REST's priceCustomerGroupAssignments (the official input has no such field)."
    customerGroupAssignments: [ReferenceInput!]
    channel: ReferenceInput
    date: DateTime
  }
`;
