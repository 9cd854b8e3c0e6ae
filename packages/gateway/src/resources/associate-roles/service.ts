import type { DocumentStore, Locator } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { applyActions, type UpdateAction } from '../shared/update-actions.js';
import type { AssociateRole } from './associate-role.js';
import { associateRoleDefinition as definition } from './definition.js';

/**
 * The writes of `/associate-roles` for GraphQL: the same definition (draft, actions, messages,
 * delete check) that `registerVersionedRoutes` serves over REST.
 */
export class AssociateRoleService {
  constructor(private readonly documents: DocumentStore) {}

  async create(ctx: RequestContext, draft: unknown): Promise<AssociateRole> {
    const fields = await definition.fromDraft(draft, ctx);
    return this.documents.create<AssociateRole>(ctx.write, definition.typeId, fields, definition.createdMessages);
  }

  update(ctx: RequestContext, locator: Locator, version: number, actions: readonly UpdateAction[]): Promise<AssociateRole> {
    return this.documents.update<AssociateRole>(ctx.write, definition.typeId, locator, version, async (current, reader) => ({
      doc: current,
      messages: await applyActions(definition.actions, current, actions, { ctx, reader }),
    }));
  }

  /** Deletes a role that no business unit assigns (400 ReferenceExists otherwise), in one transaction. */
  delete(ctx: RequestContext, locator: Locator, version: number): Promise<AssociateRole> {
    return this.documents.db.transaction(async (tx) => {
      const deleted = await this.documents.within(tx).delete<AssociateRole>(ctx.write, definition.typeId, locator, version, {
        ...(definition.deletedMessages === undefined ? {} : { messages: definition.deletedMessages }),
      });
      await definition.assertDeletable?.(deleted, tx, ctx);
      return deleted;
    });
  }
}
