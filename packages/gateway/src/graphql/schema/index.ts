import { businessUnitTypeDefs } from './business-units.js';
import { cartTypeDefs } from './carts.js';
import { commonTypeDefs } from './common.js';
import { projectTypeDefs } from './project.js';

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
    "manage_my_business_units and a customer token."
    me: Me!
    "view_project_settings."
    project: ProjectProjection!
  }

  type Mutation {
    "manage_business_units."
    createBusinessUnit(draft: BusinessUnitDraft!): BusinessUnit
    "manage_my_business_units and a customer token; the customer becomes the Admin."
    createMyBusinessUnit(draft: MyBusinessUnitDraft!): BusinessUnit
    "manage_business_units. One of id and key."
    updateBusinessUnit(version: Long!, actions: [BusinessUnitUpdateAction!]!, id: String, key: String): BusinessUnit
    "manage_my_business_units; the customer must be an Admin associate. One of id and key."
    updateMyBusinessUnit(version: Long!, actions: [MyBusinessUnitUpdateAction!]!, id: String, key: String): BusinessUnit
    "manage_business_units. One of id and key."
    deleteBusinessUnit(version: Long!, personalDataErasure: Boolean = false, id: String, key: String): BusinessUnit
    "manage_orders. One of id and key."
    updateCart(version: Long!, actions: [CartUpdateAction!]!, id: String, key: String): Cart
    "manage_my_orders and a customer token."
    updateMyCart(id: String!, version: Long!, actions: [MyCartUpdateAction!]!): Cart
    "manage_project_settings."
    updateProject(version: Long!, actions: [ProjectSettingsUpdateAction!]!): ProjectProjection
  }
`;

/** Herald's GraphQL schema (§4.3), written for its subset of the platform. */
export const typeDefs = [commonTypeDefs, businessUnitTypeDefs, cartTypeDefs, projectTypeDefs, rootTypeDefs].join('\n');
