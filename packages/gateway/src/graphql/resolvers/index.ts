import type { IResolvers } from 'mercurius';
import type { GraphQLContext } from '../context.js';
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
import { cartMutationResolvers } from './carts.js';
import { projectFieldResolvers, projectMutationResolvers, projectQueryResolvers } from './project.js';
import { DateTime, Json, Long } from './scalars.js';

/** Every resolver of the schema (fields not listed read the property of the same name). */
const resolvers = {
  Long,
  DateTime,
  Json,
  Query: { ...businessUnitQueryResolvers, ...projectQueryResolvers },
  Mutation: { ...businessUnitMutationResolvers, ...cartMutationResolvers, ...projectMutationResolvers },
  Me: meResolvers,
  BusinessUnit: businessUnitFieldResolvers,
  Associate: associateResolvers,
  CustomFieldsType: customFieldsResolvers,
  Initiator: initiatorResolvers,
  Store: storeResolvers,
  ProjectProjection: projectFieldResolvers,
} satisfies IResolvers<never, GraphQLContext>;

/**
 * mercurius types resolvers with its own context type; Herald hands its GraphQLContext to every
 * execution itself (`reply.graphql` in plugin.ts), so the map is passed under mercurius's type.
 */
export const mercuriusResolvers = resolvers as unknown as IResolvers;
