import type { KeyReference, Reference } from '@herald/model';
import type { PagedQueryResponse } from '@herald/store';
import { expectedVersion } from '../../http/version.js';
import { builtInRole } from '../../resources/associates/built-in-roles.js';
import { inheritedAssociatesOf, type InheritedAssociate, type InheritedAssociateRoleAssignment } from '../../resources/associates/inherited-associates.js';
import { ASSOCIATE_ROLE_TYPE_ID, type AssociateRole } from '../../resources/associate-roles/associate-role.js';
import { AssociateRoleService } from '../../resources/associate-roles/service.js';
import type { Associate, BusinessUnit } from '../../resources/business-units/business-unit.js';
import { defaultMode, withRoleAssignments, type AssociateRoleAssignment } from '../../resources/business-units/modes.js';
import { hasScope, requireScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf, restActions, restBusinessUnitDraft, type InputObject } from '../inputs.js';
import { associateResolvers, businessUnitFieldResolvers, type UpdateArgs } from './business-units.js';
import type { IdOrKey, QueryArgs } from './types.js';

const VIEW_ASSOCIATE_ROLES = 'view_associate_roles';
const MANAGE_ASSOCIATE_ROLES = 'manage_associate_roles';

interface AssociateRoleQueryResult {
  offset: number;
  count: number;
  total: number;
  exists: boolean;
  results: AssociateRole[];
}

function queryResult(page: PagedQueryResponse<AssociateRole>): AssociateRoleQueryResult {
  const total = page.total ?? page.count;
  return { offset: page.offset, count: page.count, total, exists: total > 0, results: page.results };
}

const service = (context: GraphQLContext): AssociateRoleService => new AssociateRoleService(context.services.documents);

/** A stored role by key, for tokens that may view roles; built-in roles are no documents (null). */
async function roleByKey(reference: KeyReference, context: GraphQLContext): Promise<AssociateRole | null> {
  if (builtInRole(reference.key) !== undefined || !hasScope(context.auth, VIEW_ASSOCIATE_ROLES)) return null;
  return (await context.services.documents.get<AssociateRole>(context.projectKey, ASSOCIATE_ROLE_TYPE_ID, { key: reference.key })) ?? null;
}

export const associateRoleQueryResolvers = {
  async associateRole(_root: unknown, args: IdOrKey, context: GraphQLContext): Promise<AssociateRole | null> {
    requireScope(context.auth, VIEW_ASSOCIATE_ROLES);
    return (await context.services.documents.get<AssociateRole>(context.projectKey, ASSOCIATE_ROLE_TYPE_ID, locatorOf(args))) ?? null;
  },
  async associateRoles(_root: unknown, args: QueryArgs, context: GraphQLContext): Promise<AssociateRoleQueryResult> {
    requireScope(context.auth, VIEW_ASSOCIATE_ROLES);
    const page = await context.services.documents.query<AssociateRole>(context.projectKey, ASSOCIATE_ROLE_TYPE_ID, {
      where: args.where === undefined || args.where === null ? [] : [args.where],
      sort: args.sort ?? [],
      ...(args.limit === undefined || args.limit === null ? {} : { limit: args.limit }),
      ...(args.offset === undefined || args.offset === null ? {} : { offset: args.offset }),
      withTotal: true,
    });
    return queryResult(page);
  },
};

export const associateRoleMutationResolvers = {
  createAssociateRole(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<AssociateRole> {
    requireScope(context.auth, MANAGE_ASSOCIATE_ROLES);
    // The draft's `custom` is a CustomFieldsDraft like a business unit's.
    return service(context).create(context.request, restBusinessUnitDraft(args.draft));
  },
  updateAssociateRole(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<AssociateRole> {
    requireScope(context.auth, MANAGE_ASSOCIATE_ROLES);
    return service(context).update(context.request, locatorOf(args), expectedVersion(args.version), restActions(args.actions));
  },
  deleteAssociateRole(_root: unknown, args: IdOrKey & { version: number }, context: GraphQLContext): Promise<AssociateRole> {
    requireScope(context.auth, MANAGE_ASSOCIATE_ROLES);
    return service(context).delete(context.request, locatorOf(args), expectedVersion(args.version));
  },
};

export const associateRoleAssignmentResolvers = {
  associateRoleRef: (assignment: AssociateRoleAssignment): KeyReference => assignment.associateRole,
  associateRole: (assignment: AssociateRoleAssignment, _args: unknown, context: GraphQLContext) => roleByKey(assignment.associateRole, context),
};

export const inheritedAssignmentResolvers = {
  associateRoleRef: (assignment: InheritedAssociateRoleAssignment): KeyReference => assignment.associateRole,
  associateRole: (assignment: InheritedAssociateRoleAssignment, _args: unknown, context: GraphQLContext) => roleByKey(assignment.associateRole, context),
  sourceRef: (assignment: InheritedAssociateRoleAssignment): KeyReference => assignment.source,
  /** The ancestor, by the rules of `parentUnit` (null where the token may not see it). */
  source: (assignment: InheritedAssociateRoleAssignment, _args: unknown, context: GraphQLContext) =>
    businessUnitFieldResolvers.parentUnit({ parentUnit: assignment.source } as BusinessUnit, undefined, context),
};

export const inheritedAssociateResolvers = {
  customerRef: (associate: InheritedAssociate): Reference => associate.customer,
  customer: (associate: InheritedAssociate, args: unknown, context: GraphQLContext) =>
    associateResolvers.customer(associate as unknown as Associate, args, context),
};

/** The reference's fields of Associate and BusinessUnit that §2.2 does not list. */
export const associateAssignmentFieldResolvers = {
  associateRoleAssignments: (associate: Associate): AssociateRoleAssignment[] => withRoleAssignments(associate).associateRoleAssignments ?? [],
};

export const businessUnitAssociateFieldResolvers = {
  associateMode: (unit: BusinessUnit) => unit.associateMode ?? defaultMode(unit.unitType),
  async inheritedAssociates(unit: BusinessUnit, _args: unknown, context: GraphQLContext): Promise<InheritedAssociate[] | null> {
    return (await inheritedAssociatesOf(context.services.documents, context.projectKey, unit)) ?? null;
  },
};
