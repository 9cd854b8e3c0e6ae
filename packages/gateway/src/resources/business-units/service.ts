import { invalidInput, resourceNotFound, type ApiError, type Clock } from '@herald/model';
import { runPagedQuery, type DocumentStore, type Locator, type PagedQueryResponse, type Project, type QueryRequest } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { referenceExists } from '../shared/reference-exists.js';
import { applyActions, type UpdateAction } from '../shared/update-actions.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { businessUnitActions, MY_BUSINESS_UNIT_ACTIONS, myBusinessUnitActions } from './actions.js';
import { associateOf, readerLookup } from './associates.js';
import { requireActionPermissions } from './my-permissions.js';
import { BUSINESS_UNIT_TYPE_ID, type BusinessUnit } from './business-unit.js';
import { businessUnitFromDraft, type BusinessUnitFields } from './draft.js';
import { hasChildren, propagateAncestry, sameAncestry, type Ancestry } from './hierarchy.js';
import { myBusinessUnitAssociateRoleOnCreation, myBusinessUnitStatusOnCreation } from './project-settings.js';
import { modeActions } from './modes.js';
import { customerGroupAssignmentActions } from './customer-groups.js';
import { unitTypeActions } from './unit-type.js';

/**
 * API clients' actions: §4.3's members and the reference's REST-only ones (modes, customer group
 * assignments, unit type).
 */
const clientActions = { ...businessUnitActions, ...modeActions, ...customerGroupAssignmentActions, ...unitTypeActions };

/**
 * Who acts: an API client (`manage_business_units`, `view_business_units`), or a customer through
 * the My operations (`manage_my_business_units` and a customer token), who sees the units it is
 * an associate of and changes those where it is an Admin.
 */
export type Actor = { kind: 'client' } | { kind: 'customer'; customerId: string };

export const CLIENT: Actor = { kind: 'client' };

export interface BusinessUnitServiceDeps {
  documents: DocumentStore;
  /** The gateway's clock: writes that join a transaction (descendants of a moved unit) need it. */
  clock: Clock;
  /**
   * The project as it is now (the gateway's project cache, which a settings update refreshes at
   * once). The request's `ctx.project` is a snapshot from when the request arrived: a GraphQL
   * document may change the settings before it creates a unit.
   */
  projects: { get(projectKey: string): Promise<Project | undefined> };
}

const MY_ACTIONS: ReadonlySet<string> = new Set(MY_BUSINESS_UNIT_ACTIONS);

function ancestryOf(unit: BusinessUnit): Ancestry {
  return { ...(unit.parentUnit === undefined ? {} : { parentUnit: unit.parentUnit }), ancestors: unit.ancestors, topLevelUnit: unit.topLevelUnit };
}

function hasDivisions(unit: BusinessUnit): ApiError {
  return referenceExists(`The business unit '${unit.key}' has Divisions; delete or move them first.`, BUSINESS_UNIT_TYPE_ID);
}

/**
 * The one service behind REST (`/business-units`, `/me/business-units`) and GraphQL: drafts,
 * the update actions, the hierarchy and the associate rules live here, nowhere else.
 */
export class BusinessUnitService {
  constructor(private readonly deps: BusinessUnitServiceDeps) {}

  async find(projectKey: string, locator: Locator, actor: Actor = CLIENT): Promise<BusinessUnit | undefined> {
    const unit = await this.deps.documents.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, locator);
    if (unit === undefined || !visibleTo(unit, actor)) return undefined;
    return unit;
  }

  /** A unit the actor may see; a unit a customer is no associate of answers like a missing one. */
  async get(projectKey: string, locator: Locator, actor: Actor = CLIENT): Promise<BusinessUnit> {
    const unit = await this.find(projectKey, locator, actor);
    if (unit === undefined) throw resourceNotFound(notFoundMessage(BUSINESS_UNIT_TYPE_ID, locator));
    return unit;
  }

  async query(projectKey: string, request: QueryRequest, actor: Actor = CLIENT): Promise<PagedQueryResponse<BusinessUnit>> {
    const { documents } = this.deps;
    if (actor.kind === 'client') return documents.query<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, request);
    // A customer's units: those whose associates contain the customer (bound JSON, never inlined).
    return runPagedQuery<BusinessUnit>(
      documents.db,
      'resources',
      ['r.project_key = $1', 'r.type_id = $2', "r.doc->'associates' @> $3::jsonb"],
      [projectKey, BUSINESS_UNIT_TYPE_ID, JSON.stringify([{ customer: { id: actor.customerId } }])],
      request,
    );
  }

  /** BusinessUnitDraft (clients, status Active) or MyBusinessUnitDraft (the project's status on creation, §3.2). */
  async create(ctx: RequestContext, draft: unknown, actor: Actor = CLIENT): Promise<BusinessUnit> {
    if (actor.kind === 'client') return this.createUnit(ctx, await businessUnitFromDraft(draft, ctx, actor, 'Active'));
    const project = (await this.deps.projects.get(ctx.projectKey)) ?? ctx.project;
    const origin = { ...actor, creatorRole: myBusinessUnitAssociateRoleOnCreation(project) };
    return this.createUnit(ctx, await businessUnitFromDraft(draft, ctx, origin, myBusinessUnitStatusOnCreation(project)));
  }

  private async createUnit(ctx: RequestContext, fields: BusinessUnitFields): Promise<BusinessUnit> {
    return this.deps.documents.create<BusinessUnit>(ctx.write, BUSINESS_UNIT_TYPE_ID, fields, (businessUnit) => [
      { type: 'BusinessUnitCreated', businessUnit },
    ]);
  }

  /**
   * Applies update actions (all or none, §4.4.8). A customer may use the 18 My actions only, each
   * with its permission in the unit (my-permissions.ts; the built-in Admin role has them all).
   * When the unit moved, its descendants follow in the same transaction.
   */
  async update(ctx: RequestContext, locator: Locator, version: number, actions: readonly UpdateAction[], actor: Actor = CLIENT): Promise<BusinessUnit> {
    const { documents } = this.deps;
    if (actor.kind === 'customer') {
      // Visibility first, then the actions and permissions, so neither a 409 nor a 400 tells an outsider anything.
      const visible = await this.get(ctx.projectKey, locator, actor);
      const refused = actions.find((action) => !MY_ACTIONS.has(action.action));
      if (refused !== undefined) {
        throw invalidInput(`The update action '${refused.action}' is not available to the My business unit operations (§4.3).`, {
          action: refused.action,
        });
      }
      await requireActionPermissions({ documents }, ctx.projectKey, visible, actor.customerId, actions);
    }
    const handlers = actor.kind === 'client' ? clientActions : myBusinessUnitActions;
    return documents.update<BusinessUnit>(
      ctx.write,
      BUSINESS_UNIT_TYPE_ID,
      locator,
      version,
      async (current, reader) => {
        if (actor.kind === 'customer') {
          if (!visibleTo(current, actor)) throw resourceNotFound(notFoundMessage(BUSINESS_UNIT_TYPE_ID, locator));
          await requireActionPermissions({ documents: readerLookup(reader) }, ctx.projectKey, current, actor.customerId, actions);
        }
        const messages = await applyActions(handlers, current, actions, { ctx, reader });
        return { doc: current, messages };
      },
      {
        // Descendants follow the ancestry as written (an API Extension's actions included), once, in
        // the update's transaction: not from `apply`, which computes and may be run without writing.
        alongside: async (tx, previous, next) => {
          if (!sameAncestry(ancestryOf(previous), ancestryOf(next))) await propagateAncestry(documents.within(tx), ctx.write, next);
        },
      },
    );
  }

  /** Deletes a unit without Divisions; `dataErasure` also erases its messages (§4.4.9). */
  async delete(ctx: RequestContext, locator: Locator, version: number, dataErasure: boolean): Promise<BusinessUnit> {
    const { documents } = this.deps;
    return documents.db.transaction(async (tx) => {
      const store = documents.within(tx);
      const unit = await store.get<BusinessUnit>(ctx.projectKey, BUSINESS_UNIT_TYPE_ID, locator);
      // A wrong version answers 409 from the delete itself, before anything about children.
      if (unit !== undefined && unit.version === version && (await hasChildren(store, ctx.projectKey, unit))) {
        throw hasDivisions(unit);
      }
      return store.delete<BusinessUnit>(ctx.write, BUSINESS_UNIT_TYPE_ID, locator, version, {
        dataErasure,
        messages: () => [{ type: 'BusinessUnitDeleted' }],
      });
    });
  }
}

/**
 * The My rule: a customer sees the units it is an associate of (any role), a client all of them.
 * GraphQL applies it to units reached through references too (parentUnit, ancestors, …).
 */
export function visibleTo(unit: BusinessUnit, actor: Actor): boolean {
  return actor.kind === 'client' || associateOf(unit, actor.customerId) !== undefined;
}
