import type { IResolvers } from 'mercurius';
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
import { DateTimeScalar, JsonScalar, LongScalar } from './scalars.js';

/** Every resolver of the schema (fields not listed read the property of the same name). */
export const resolvers = {
  Long: LongScalar,
  DateTime: DateTimeScalar,
  Json: JsonScalar,
  Query: { ...businessUnitQueryResolvers, ...projectQueryResolvers },
  Mutation: { ...businessUnitMutationResolvers, ...cartMutationResolvers, ...projectMutationResolvers },
  Me: meResolvers,
  BusinessUnit: businessUnitFieldResolvers,
  Associate: associateResolvers,
  CustomFieldsType: customFieldsResolvers,
  Initiator: initiatorResolvers,
  Store: storeResolvers,
  ProjectProjection: projectFieldResolvers,
} satisfies IResolvers;
