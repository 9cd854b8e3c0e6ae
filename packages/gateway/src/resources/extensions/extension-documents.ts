import { randomUUID } from 'node:crypto';
import { ApiError, type BaseResource, type Clock, type MessagePayload } from '@herald/model';
import {
  expandReferencesInMany,
  type DocumentStore,
  type Locator,
  type Project,
  type ServerFields,
  type TransactionReader,
  type UpdateOptions,
  type UpdateResult,
  type WriteContext,
} from '@herald/store';
import { newCorrelationId } from '../../http/correlation.js';
import type { RequestContext } from '../shared/context.js';
import { applyActions, type ActionHandlers } from '../shared/update-actions.js';
import type { ExtensionCaller } from './calls/index.js';
import type { ExtensionDirectory } from './directory.js';
import { extensionUpdateActionsFailed } from './errors.js';
import type { Extension, ExtensionAction } from './extension.js';
import { runExtensions, type ExtensionWrite, type ReturnedActions } from './run.js';
import type { TriggeredActions } from './triggered-actions.js';

export interface ExtensionHookDeps {
  directory: ExtensionDirectory;
  caller: ExtensionCaller;
  /** The update actions of each triggered type: what Extensions' answers are applied with. */
  actions: TriggeredActions;
  /** The project, for writes outside a request (the request's own otherwise). */
  projects: { get(projectKey: string): Promise<Project | undefined> };
  clock: Clock;
}

type Apply<D extends BaseResource> = (current: D, reader: TransactionReader) => Promise<UpdateResult<D>> | UpdateResult<D>;

/** Thrown by the run of an update's `apply` to stop it before it writes, carrying what it computed. */
class Computed<D extends BaseResource> extends Error {
  constructor(readonly result: { old: D; doc: D; messages: MessagePayload[] }) {
    super('computed, not written');
  }
}

/** Types an Extension never sees: their stored documents hold secrets (subscriptions, Extensions). */
const NEVER_EXPANDED: ReadonlySet<string> = new Set(['subscription', 'extension']);

const withoutServerFields = <D extends BaseResource>(doc: D): Omit<D, ServerFields> & { id: string } => {
  const { version: _v, createdAt: _c, lastModifiedAt: _m, createdBy: _cb, lastModifiedBy: _mb, ...fields } = doc;
  return fields as unknown as Omit<D, ServerFields> & { id: string };
};

/**
 * The write hook of API extensions: the document store every resource writes through, so every
 * create and update of a triggered type (carts, orders, payments, customers, customer groups, quote
 * requests, staged quotes, quotes, business units), REST or GraphQL, calls the project's matching
 * Extensions before it is committed, once, here, instead of in each route.
 *
 * No transaction is held open while an Extension is called (on PGlite an open transaction would
 * stop every other request for up to the Extension's timeout; on PostgreSQL it would hold the row
 * lock and a connection): the request's update actions run once, on the current version, and
 * nothing is written; the Extensions are called with the resource as it will be; then the write
 * commits that computed resource with the Extensions' update actions applied after the request's
 * (their messages after the request's), in one transaction, under the same expected version, so a
 * write committed in between answers 409 as the row lock would have. The request's actions do not
 * run again: a second run would repeat whatever they do beyond the document (a nested write, its
 * own Extension calls) and could answer differently from what the Extension saw. What an update
 * writes beside the document belongs in `UpdateOptions.alongside`, which runs once, in the write's
 * transaction, with the final document (a business unit's descendants follow its ancestry so).
 * Writes that already run inside a caller's transaction (`within(tx)`: a quote made with its staged
 * quote) cannot avoid it: their Extensions are called inside it.
 *
 * Nothing is written when an Extension fails: the error is thrown before the write.
 */
export function extensionCallingDocuments(documents: DocumentStore, deps: ExtensionHookDeps): DocumentStore {
  const handlersOf = (typeId: string): ActionHandlers<BaseResource> | undefined => deps.actions[typeId as keyof TriggeredActions];

  /** The request context update actions run with: the writing request's project and token. */
  const contextFor = async (ctx: WriteContext): Promise<RequestContext> => {
    const request = ctx.request;
    const project = request?.project.key === ctx.projectKey ? request.project : await deps.projects.get(ctx.projectKey);
    if (project === undefined) throw new Error(`extension hook: project '${ctx.projectKey}' not found`);
    return {
      projectKey: ctx.projectKey,
      project,
      auth: request?.auth,
      write: ctx,
      load: (typeId, locator) => documents.get(ctx.projectKey, typeId, locator),
      db: documents.db,
    };
  };

  /** Applies one Extension's actions; a refused action is ExtensionUpdateActionsFailed (400). */
  const applyAs = async <D extends BaseResource>(
    extension: Extension,
    doc: D,
    actions: ReturnedActions['actions'],
    ctx: RequestContext,
    reader: TransactionReader,
    handlers?: ActionHandlers<BaseResource>,
  ): Promise<MessagePayload[]> => {
    try {
      return await applyActions(handlers ?? {}, doc, actions, { ctx, reader });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 400) throw extensionUpdateActionsFailed(extension, error);
      throw error;
    }
  };

  /** Calls the Extensions for a write; the update actions they answered, in order. */
  const callFor = async (ctx: WriteContext, write: ExtensionWrite, candidates: readonly Extension[]): Promise<ReturnedActions[]> => {
    const handlers = handlersOf(write.typeId) ?? {};
    const context = await contextFor(ctx);
    const reader = readerOutside(documents, ctx.projectKey);
    return runExtensions(candidates, write, {
      caller: deps.caller,
      // Outside a request (background writes), a correlation id of the call's own.
      correlationId: ctx.request?.correlationId ?? newCorrelationId(),
      expand: async (resource, paths) =>
        (
          await expandReferencesInMany([resource], paths, async (typeId, ids) =>
            NEVER_EXPANDED.has(typeId) ? new Map() : documents.getMany(ctx.projectKey, typeId, ids),
          )
        )[0],
      applied: async (resource, returned) => {
        const copy = structuredClone(resource);
        for (const { extension, actions } of returned) await applyAs(extension, copy, actions, context, reader, handlers);
        return copy;
      },
    });
  };

  const candidatesFor = async (ctx: WriteContext, typeId: string, action: ExtensionAction): Promise<Extension[]> =>
    handlersOf(typeId) === undefined ? [] : deps.directory.triggeredBy(ctx.projectKey, typeId, action, documents);

  const overrides: Pick<DocumentStore, 'create' | 'update' | 'within'> = {
    async create<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      fields: Omit<D, ServerFields> & { id?: string },
      messages?: (doc: D) => MessagePayload[],
    ): Promise<D> {
      const candidates = await candidatesFor(ctx, typeId, 'Create');
      if (candidates.length === 0) return documents.create<D>(ctx, typeId, fields, messages);
      // The resource as the store will create it, under the id it will have.
      const now = deps.clock.now().toISOString();
      const id = fields.id ?? randomUUID();
      const resource = { ...fields, id, version: 1, createdAt: now, lastModifiedAt: now } as unknown as D;
      const returned = await callFor(ctx, { typeId, action: 'Create', resource }, candidates);
      if (returned.length === 0) return documents.create<D>(ctx, typeId, { ...fields, id }, messages);
      const context = await contextFor(ctx);
      const reader = readerOutside(documents, ctx.projectKey);
      // The created messages describe the created resource, the Extensions' changes included; the
      // actions' own messages (a LineItemAdded beside the CartCreated holding that item) are not sent.
      for (const { extension, actions } of returned) await applyAs(extension, resource, actions, context, reader, handlersOf(typeId));
      return documents.create<D>(ctx, typeId, withoutServerFields(resource), messages);
    },

    async update<D extends BaseResource>(
      ctx: WriteContext,
      typeId: string,
      locator: Locator,
      expectedVersion: number,
      apply: Apply<D>,
      options: UpdateOptions<D> = {},
    ): Promise<D> {
      const candidates = await candidatesFor(ctx, typeId, 'Update');
      if (candidates.length === 0) return documents.update<D>(ctx, typeId, locator, expectedVersion, apply, options);
      const computed = await compute(documents, ctx, typeId, locator, expectedVersion, apply, options);
      const returned = await callFor(ctx, { typeId, action: 'Update', resource: computed.doc, old: computed.old }, candidates);
      const context = await contextFor(ctx);
      // At the version `compute` read (else 409), the document is the one the request's actions
      // ran on: their result is committed as computed, without running them again.
      return documents.update<D>(
        ctx,
        typeId,
        locator,
        expectedVersion,
        async (_current, reader) => {
          const doc = structuredClone(computed.doc);
          const produced: MessagePayload[] = [...computed.messages];
          for (const { extension, actions } of returned) produced.push(...(await applyAs(extension, doc, actions, context, reader, handlersOf(typeId))));
          return { doc, messages: produced };
        },
        options,
      );
    },

    within(tx) {
      return extensionCallingDocuments(documents.within(tx), deps);
    },
  };
  return Object.assign(Object.create(documents) as DocumentStore, overrides);
}

/** The one run of an update's `apply`, on the current version, stopped before anything is written. */
async function compute<D extends BaseResource>(
  documents: DocumentStore,
  ctx: WriteContext,
  typeId: string,
  locator: Locator,
  expectedVersion: number,
  apply: Apply<D>,
  options: UpdateOptions<D>,
): Promise<{ old: D; doc: D; messages: MessagePayload[] }> {
  try {
    await documents.update<D>(
      ctx,
      typeId,
      locator,
      expectedVersion,
      async (current, reader) => {
        const old = structuredClone(current);
        const result = await apply(current, reader);
        throw new Computed({ old, doc: { ...result.doc, version: old.version + 1 }, messages: result.messages ?? [] });
      },
      // Without `alongside`: nothing is written in this pass.
      { ...(options.optimistic === undefined ? {} : { optimistic: options.optimistic }) },
    );
  } catch (error) {
    if (error instanceof Computed) return error.result as Computed<D>['result'];
    throw error;
  }
  throw new Error('extension hook: computing an update wrote');
}

/** Reads for actions applied outside the write's transaction (they only read; none of them writes). */
function readerOutside(documents: DocumentStore, projectKey: string): TransactionReader {
  return { tx: documents.db, get: (typeId, locator) => documents.get(projectKey, typeId, locator) };
}
