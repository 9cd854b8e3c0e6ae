import type { IResolvers } from 'mercurius';
import { clearLoaders, type GraphQLContext } from '../context.js';
import {
  associateResolvers,
  businessUnitFieldResolvers,
  businessUnitMutationResolvers,
  businessUnitQueryResolvers,
  customFieldsResolvers,
  initiatorResolvers,
  meResolvers,
  storeResolvers,
} from './business-units.js';
import {
  associateAssignmentFieldResolvers,
  associateRoleAssignmentResolvers,
  associateRoleMutationResolvers,
  associateRoleQueryResolvers,
  businessUnitAssociateFieldResolvers,
  inheritedAssignmentResolvers,
  inheritedAssociateResolvers,
} from './associate-roles.js';
import { cartFieldResolvers, cartMutationResolvers } from './carts.js';
import { baseMoneyResolvers, dimensionsResolvers, priceResolvers, variantResolvers } from './product-fields.js';
import {
  facetResultResolvers,
  productProjectionResolvers,
  productSearchQueryResolvers,
  rangeCountDoubleResolvers,
  rangeCountLongResolvers,
  rangeCountResolvers,
  rangeFacetResultResolvers,
} from './product-search.js';
import { productCatalogDataResolvers, productDataResolvers, productFieldResolvers, productQueryResolvers } from './products.js';
import {
  productOfSelectionResolvers,
  productSelectionFieldResolvers,
  productSelectionQueryResolvers,
  productSelectionSettingResolvers,
  productVariantSelectionResolvers,
  storeProductSelectionResolvers,
} from './product-selections.js';
import { projectFieldResolvers, projectMutationResolvers, projectQueryResolvers } from './project.js';
import {
  KeyReferenceInput,
  negotiationQueryResolvers,
  orderFieldResolvers,
  quoteFieldResolvers,
  quoteRequestFieldResolvers,
  stagedQuoteFieldResolvers,
} from './negotiation.js';
import { negotiationMutationResolvers } from './negotiation-mutations.js';
import { myNegotiationMutationResolvers } from './negotiation-my.js';
import { Country, Currency, DateTime, Json, Locale, Long } from './scalars.js';

type MutationResolver = (root: never, args: never, context: GraphQLContext) => unknown;

/**
 * graphql-js runs mutation fields one after another, each with its selection, but the loaders
 * live for the whole request: after each field (done or failed) they are cleared, so the next
 * field and this field's own selection read what the write left, not what an earlier field
 * cached. Wrapping the whole Mutation map keeps a new mutation from forgetting it.
 */
function clearingLoadersAfterEach<R extends Record<string, MutationResolver>>(resolvers: R): R {
  const wrapped: Record<string, MutationResolver> = {};
  for (const [name, resolve] of Object.entries(resolvers)) {
    wrapped[name] = async (root, args, context) => {
      try {
        return await resolve(root, args, context);
      } finally {
        clearLoaders(context.loaders);
      }
    };
  }
  return wrapped as R;
}

/** Every resolver of the schema (fields not listed read the property of the same name). */
const resolvers = {
  Long,
  DateTime,
  Json,
  Country,
  Locale,
  Currency,
  KeyReferenceInput,
  Query: {
    ...businessUnitQueryResolvers,
    ...associateRoleQueryResolvers,
    ...projectQueryResolvers,
    ...negotiationQueryResolvers,
    ...productQueryResolvers,
    ...productSearchQueryResolvers,
    ...productSelectionQueryResolvers,
  },
  Mutation: clearingLoadersAfterEach({
    ...businessUnitMutationResolvers,
    ...associateRoleMutationResolvers,
    ...cartMutationResolvers,
    ...projectMutationResolvers,
    ...negotiationMutationResolvers,
    ...myNegotiationMutationResolvers,
  }),
  Me: meResolvers,
  BusinessUnit: { ...businessUnitFieldResolvers, ...businessUnitAssociateFieldResolvers },
  Associate: { ...associateResolvers, ...associateAssignmentFieldResolvers },
  AssociateRoleAssignment: associateRoleAssignmentResolvers,
  InheritedAssociateRoleAssignment: inheritedAssignmentResolvers,
  InheritedAssociate: inheritedAssociateResolvers,
  CustomFieldsType: customFieldsResolvers,
  Initiator: initiatorResolvers,
  Store: { ...storeResolvers, ...storeProductSelectionResolvers },
  Cart: cartFieldResolvers,
  ProjectProjection: projectFieldResolvers,
  QuoteRequest: quoteRequestFieldResolvers,
  StagedQuote: stagedQuoteFieldResolvers,
  Quote: quoteFieldResolvers,
  Order: orderFieldResolvers,
  Product: productFieldResolvers,
  ProductCatalogData: productCatalogDataResolvers,
  ProductData: productDataResolvers,
  ProductVariant: variantResolvers,
  ProductSearchVariant: variantResolvers,
  ProductPrice: priceResolvers,
  ProductPriceSearch: priceResolvers,
  ScopedPrice: priceResolvers,
  Dimensions: dimensionsResolvers,
  BaseMoney: baseMoneyResolvers,
  ProductProjection: productProjectionResolvers,
  FacetResult: facetResultResolvers,
  RangeFacetResult: rangeFacetResultResolvers,
  RangeCount: rangeCountResolvers,
  RangeCountDouble: rangeCountDoubleResolvers,
  RangeCountLong: rangeCountLongResolvers,
  ProductSelection: productSelectionFieldResolvers,
  ProductOfSelection: productOfSelectionResolvers,
  ProductVariantSelection: productVariantSelectionResolvers,
  ProductSelectionSetting: productSelectionSettingResolvers,
} satisfies IResolvers<never, GraphQLContext>;

/**
 * mercurius types resolvers with its own context type; Herald hands its GraphQLContext to every
 * execution itself (`reply.graphql` in plugin.ts), so the map is passed under mercurius's type.
 */
export const mercuriusResolvers = resolvers as unknown as IResolvers;
