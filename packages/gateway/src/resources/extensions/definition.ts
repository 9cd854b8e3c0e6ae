import type { SecretBox } from '@herald/delivery';
import { ApiError } from '@herald/model';
import type { DocumentStore, Queryable, ServerFields } from '@herald/store';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { maskedDestination, parseDestination, sealDestination } from './destination.js';
import type { ExtensionDirectory } from './directory.js';
import { extensionDependencyExists } from './errors.js';
import { EXTENSION_TYPE_ID, MAX_EXTENSIONS_PER_PROJECT, type Extension } from './extension.js';
import { parseAdditionalContext, parseDependencies, parseExpansionPaths, parseTimeout, parseTriggers } from './fields.js';

export interface ExtensionDefinitionDeps {
  documents: DocumentStore;
  /** Seals the destination secrets at rest: the box of subscription destinations (HERALD_SECRET_KEY). */
  secrets: SecretBox;
  /** The Extensions the write hook calls, cached per project: told at once about every change here. */
  directory: ExtensionDirectory;
}

/**
 * 400 MaxResourceLimitExceeded at the platform's 25 Extensions per project. A count, not a lock:
 * two creates racing at 24 may both pass (a guard against runaway scripts, like the reference's
 * "may take up to a minute" eventual consistency of Extensions).
 */
async function requireRoom(documents: DocumentStore, projectKey: string): Promise<void> {
  const existing = await documents.query(projectKey, EXTENSION_TYPE_ID, { limit: 1, withTotal: true });
  if ((existing.total ?? 0) >= MAX_EXTENSIONS_PER_PROJECT) {
    throw new ApiError(400, {
      code: 'MaxResourceLimitExceeded',
      message: `A project can have at most ${MAX_EXTENSIONS_PER_PROJECT} API Extensions.`,
      exceededResource: EXTENSION_TYPE_ID,
    });
  }
}

/** The keys (or ids) of the Extensions that list `extension` in their `dependencies`. */
async function dependentsOf(tx: Queryable, projectKey: string, extension: Extension): Promise<string[]> {
  const found = await tx.query<{ name: string }>(
    `SELECT coalesce(doc ->> 'key', id) AS name FROM resources
      WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath ORDER BY 1`,
    [projectKey, EXTENSION_TYPE_ID, `$.dependencies[*] ? (@.id == ${JSON.stringify(extension.id)})`],
  );
  return found.rows.map((row) => row.name);
}

/**
 * `/{projectKey}/extensions` (reference resources/extensions.raml: every operation needs
 * `manage_extensions`). The reference has no Extension messages; changes are notified.
 */
export function extensionDefinition(deps: ExtensionDefinitionDeps): ResourceDefinition<Extension> {
  const { documents, secrets, directory } = deps;
  const forget = async (_doc: Extension, ctx: { projectKey: string }): Promise<void> => directory.forget(ctx.projectKey);
  return {
    typeId: EXTENSION_TYPE_ID,
    path: 'extensions',
    scopes: { view: [], manage: ['manage_extensions'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'ExtensionDraft');
      const fields: Omit<Extension, ServerFields> = {
        destination: sealDestination(parseDestination(draft.destination), secrets),
        triggers: parseTriggers(draft.triggers),
      };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      if (draft.timeoutInMs !== undefined && draft.timeoutInMs !== null) fields.timeoutInMs = parseTimeout(draft.timeoutInMs);
      const dependencies = await parseDependencies(draft.dependencies, ctx.load);
      if (dependencies !== undefined && dependencies.length > 0) fields.dependencies = dependencies;
      const expansionPaths = parseExpansionPaths(draft.expansionPaths);
      if (expansionPaths !== undefined) fields.expansionPaths = expansionPaths;
      const additionalContext = parseAdditionalContext(draft.additionalContext);
      if (additionalContext !== undefined) fields.additionalContext = additionalContext;
      await requireRoom(documents, ctx.projectKey);
      return fields;
    },

    actions: {
      setKey(extension, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete extension.key;
        else extension.key = key;
      },
      changeTriggers(extension, action) {
        extension.triggers = parseTriggers(action.triggers);
      },
      changeDestination(extension, action) {
        extension.destination = sealDestination(parseDestination(action.destination), secrets);
      },
      setTimeoutInMs(extension, action) {
        if (action.timeoutInMs === undefined || action.timeoutInMs === null) delete extension.timeoutInMs;
        else extension.timeoutInMs = parseTimeout(action.timeoutInMs);
      },
      async setDependencies(extension, action, { reader }) {
        const dependencies = await parseDependencies(action.dependencies ?? [], reader.get, extension.id);
        if (dependencies === undefined || dependencies.length === 0) delete extension.dependencies;
        else extension.dependencies = dependencies;
      },
      setExpansionPaths(extension, action) {
        const paths = parseExpansionPaths(action.expansionPaths);
        if (paths === undefined || paths.length === 0) delete extension.expansionPaths;
        else extension.expansionPaths = paths;
      },
      setAdditionalContext(extension, action) {
        const context = parseAdditionalContext(action.additionalContext);
        if (context === undefined) delete extension.additionalContext;
        else extension.additionalContext = context;
      },
    },

    // Secrets are partially hidden in every answer (reference: "Partially hidden on retrieval").
    present: (extension) => ({ ...extension, destination: maskedDestination(extension.destination, secrets) }),

    async assertDeletable(extension, tx, ctx) {
      const dependents = await dependentsOf(tx, ctx.projectKey, extension);
      if (dependents.length > 0) throw extensionDependencyExists(dependents);
    },

    afterCreate: forget,
    afterUpdate: (doc, _actions, ctx) => forget(doc, ctx),
    afterDelete: forget,
  };
}
