import { associateRoleTypeDefs } from './associate-roles.js';
import { businessUnitTypeDefs } from './business-units.js';
import { cartUpdateTypeDefs } from './cart-updates.js';
import { cartTypeDefs } from './carts.js';
import { commonTypeDefs } from './common.js';
import { productTypeDefs } from './products.js';
import { projectTypeDefs } from './project.js';
import { negotiationTypeDefs } from './negotiation.js';
import { negotiationMutationTypeDefs } from './negotiation-mutations.js';
import { orderUpdateTypeDefs } from './order-updates.js';
import { productSelectionTypeDefs } from './product-selections.js';

/**
 * The root types. Each field names the scope it needs (the resolvers check it, see access.ts);
 * `manage_project` implies every scope, `manage_X` implies `view_X`.
 */
const rootTypeDefs = /* GraphQL */ `
  type Query {
    "view_business_units. One of id and key."
    businessUnit(id: String, key: String): BusinessUnit
    "view_business_units. limit 1 to 500 (default 20), offset up to 10000."
    businessUnits(where: String, sort: [String!], limit: Int, offset: Int): BusinessUnitQueryResult!
    "view_associate_roles. One of id and key."
    associateRole(id: String, key: String): AssociateRoleResource
    "view_associate_roles."
    associateRoles(where: String, sort: [String!], limit: Int, offset: Int): AssociateRoleQueryResult!
    "manage_my_business_units and a customer token."
    me: Me!
    "view_project_settings."
    project: ProjectProjection!
    "view_products. One of id, key, sku and variantKey."
    product(id: String, key: String, sku: String, variantKey: String): Product
    "view_products. skus: products with a variant of one of these SKUs."
    products(where: String, sort: [String!], limit: Int, offset: Int, skus: [String!]): ProductQueryResult!
    "view_products or view_published_products (staged needs view_products). The REST search's parameters, in the official schema's names."
    productProjectionSearch(
      locale: Locale
      text: String
      facets: [SearchFacetInput!] = []
      filters: [SearchFilterInput!] = []
      queryFilters: [SearchFilterInput!] = []
      facetFilters: [SearchFilterInput!] = []
      sorts: [String!] = []
      limit: Int = 10
      offset: Int = 0
      fuzzy: Boolean = false
      fuzzyLevel: Int
      priceSelector: PriceSelectorInput
      markMatchingVariants: Boolean
      "Deprecated: markMatchingVariants."
      markMatchingVariant: Boolean
      storeProjection: String
      localeProjection: [Locale!]
      staged: Boolean = false
    ): ProductProjectionSearchResult!
  }

  type Mutation {
    "manage_business_units."
    createBusinessUnit(draft: BusinessUnitDraft!): BusinessUnit
    "manage_my_business_units and a customer token; the customer becomes the Admin."
    createMyBusinessUnit(draft: MyBusinessUnitDraft!): BusinessUnit
    "manage_business_units. One of id and key."
    updateBusinessUnit(version: Long!, actions: [BusinessUnitUpdateAction!]!, id: String, key: String): BusinessUnit
    "manage_my_business_units; the customer needs each action's associate permission (UpdateBusinessUnitDetails, UpdateAssociates, UpdateParentUnit). One of id and key."
    updateMyBusinessUnit(version: Long!, actions: [MyBusinessUnitUpdateAction!]!, id: String, key: String): BusinessUnit
    "manage_business_units. One of id and key."
    deleteBusinessUnit(version: Long!, personalDataErasure: Boolean = false, id: String, key: String): BusinessUnit
    "manage_associate_roles."
    createAssociateRole(draft: AssociateRoleDraft!): AssociateRoleResource
    "manage_associate_roles. One of id and key."
    updateAssociateRole(version: Long!, actions: [AssociateRoleUpdateAction!]!, id: String, key: String): AssociateRoleResource
    "manage_associate_roles. One of id and key; refused while a business unit assigns the role."
    deleteAssociateRole(version: Long!, id: String, key: String): AssociateRoleResource
    "manage_orders. One of id and key."
    updateCart(version: Long!, actions: [CartUpdateAction!]!, id: String, key: String): Cart
    "manage_my_orders and a customer token."
    updateMyCart(id: String!, version: Long!, actions: [MyCartUpdateAction!]!): Cart
    "manage_project_settings."
    updateProject(version: Long!, actions: [ProjectSettingsUpdateAction!]!): ProjectProjection
  }
`;

/** Herald's GraphQL schema (§4.3), written for its subset of the platform. */
export const typeDefs = [
  commonTypeDefs,
  associateRoleTypeDefs,
  businessUnitTypeDefs,
  cartTypeDefs,
  cartUpdateTypeDefs,
  productTypeDefs,
  projectTypeDefs,
  rootTypeDefs,
  negotiationTypeDefs,
  negotiationMutationTypeDefs,
  orderUpdateTypeDefs,
  productSelectionTypeDefs,
].join('\n');
