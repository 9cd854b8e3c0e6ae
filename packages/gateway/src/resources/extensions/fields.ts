import { invalidInput, requiredField, type Reference } from '@herald/model';
import { parseExpandPath, type Locator } from '@herald/store';
import { identifierLocator, referencedResourceNotFound, type Load } from '../shared/references.js';
import { stringArray } from '../shared/validation.js';
import { parseCondition } from './condition.js';
import { extensionChainTooDeep, extensionChainTooWide } from './errors.js';
import {
  DEFAULT_TIMEOUT_MS,
  EXTENSION_ACTIONS,
  EXTENSION_RESOURCE_TYPE_IDS,
  EXTENSION_TYPE_ID,
  MAX_CHAIN_DEPTH,
  MAX_DEPENDENCIES,
  MAX_EXPANSION_PATHS,
  MAX_TIMEOUT_MS,
  type Extension,
  type ExtensionAction,
  type ExtensionAdditionalContext,
  type ExtensionResourceTypeId,
  type ExtensionTrigger,
} from './extension.js';

/** Triggers per Extension: the reference states no limit; one per resource type and action is all that can differ. */
const MAX_TRIGGERS = 50;

function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${allowed.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

function trigger(value: unknown, field: string): ExtensionTrigger {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be an ExtensionTrigger object.`, { field });
  const draft = value as Record<string, unknown>;
  if (draft.resourceTypeId === undefined || draft.resourceTypeId === null) throw requiredField(`${field}.resourceTypeId`);
  const resourceTypeId: ExtensionResourceTypeId = oneOf(EXTENSION_RESOURCE_TYPE_IDS, draft.resourceTypeId, `${field}.resourceTypeId`);
  if (draft.actions === undefined || draft.actions === null) throw requiredField(`${field}.actions`);
  if (!Array.isArray(draft.actions) || draft.actions.length === 0) {
    throw invalidInput(`'${field}.actions' must be a non-empty array of Create and Update.`, { field: `${field}.actions` });
  }
  const actions = [...new Set(draft.actions.map((action, index): ExtensionAction => oneOf(EXTENSION_ACTIONS, action, `${field}.actions[${index}]`)))];
  const result: ExtensionTrigger = { resourceTypeId, actions };
  if (draft.condition !== undefined && draft.condition !== null) {
    if (typeof draft.condition !== 'string') throw invalidInput(`'${field}.condition' must be a query predicate string.`, { field: `${field}.condition` });
    // A malformed predicate is refused now (400 naming the position), never when a cart is written.
    parseCondition(draft.condition);
    result.condition = draft.condition;
  }
  return result;
}

/** ExtensionDraft.triggers / changeTriggers: "Must not be empty". */
export function parseTriggers(value: unknown): ExtensionTrigger[] {
  if (value === undefined || value === null) throw requiredField('triggers');
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TRIGGERS) {
    throw invalidInput(`'triggers' must be a non-empty array of at most ${MAX_TRIGGERS} ExtensionTrigger objects.`, { field: 'triggers' });
  }
  return value.map((each, index) => trigger(each, `triggers[${index}]`));
}

/** ExtensionDraft.timeoutInMs: an integer, `maximum: 10000`; absent means the default, 2000. */
export function parseTimeout(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw invalidInput(`'timeoutInMs' must be an integer from 1 to ${MAX_TIMEOUT_MS}.`, { field: 'timeoutInMs', invalidValue: value });
  }
  return value;
}

/** ExtensionDraft.expansionPaths: at most 3 valid expansion paths. */
export function parseExpansionPaths(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const paths = stringArray(value, 'expansionPaths', undefined, MAX_EXPANSION_PATHS);
  for (const path of paths) {
    if (parseExpandPath(path) === undefined)
      throw invalidInput(`'expansionPaths' contains an invalid expansion path: ${JSON.stringify(path)}.`, { field: 'expansionPaths' });
  }
  return paths;
}

export function parseAdditionalContext(value: unknown): ExtensionAdditionalContext | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput("'additionalContext' must be an object.", { field: 'additionalContext' });
  const include = (value as Record<string, unknown>).includeOldResource;
  if (include !== undefined && include !== null && typeof include !== 'boolean') {
    throw invalidInput("'additionalContext.includeOldResource' must be a boolean.", { field: 'additionalContext.includeOldResource' });
  }
  return { includeOldResource: include === true };
}

/** The layers of dependencies below `extension` (0 without any), following stored references. */
async function depthBelow(dependencies: readonly Reference<'extension'>[], load: Load, seen: ReadonlySet<string>): Promise<number> {
  let deepest = 0;
  for (const dependency of dependencies) {
    if (seen.has(dependency.id)) throw invalidInput('The dependencies of an Extension must not form a cycle.', { field: 'dependencies' });
    const found = await load<Extension>(EXTENSION_TYPE_ID, { id: dependency.id });
    const below = found === undefined ? 0 : await depthBelow(found.dependencies ?? [], load, new Set([...seen, dependency.id]));
    deepest = Math.max(deepest, below + 1);
  }
  return deepest;
}

/**
 * ExtensionDraft.dependencies / setDependencies: each an existing Extension (by id or key), at most
 * five (ExtensionChainTooWide), no cycle, a chain of at most three layers (ExtensionChainTooDeep).
 * Checked from the Extension downwards: an Extension others depend on that gains dependencies
 * itself can lengthen their chains unchecked; the caller then orders by the chain as it is.
 */
export async function parseDependencies(value: unknown, load: Load, selfId?: string): Promise<Array<Reference<'extension'>> | undefined> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidInput("'dependencies' must be an array of ExtensionResourceIdentifiers.", { field: 'dependencies' });
  if (value.length > MAX_DEPENDENCIES) throw extensionChainTooWide(MAX_DEPENDENCIES);
  const references: Array<Reference<'extension'>> = [];
  for (const [index, item] of value.entries()) {
    const locator: Locator = identifierLocator(item, `dependencies[${index}]`, EXTENSION_TYPE_ID);
    const found = await load<Extension>(EXTENSION_TYPE_ID, locator);
    if (found === undefined) throw referencedResourceNotFound(EXTENSION_TYPE_ID, locator);
    if (!references.some((reference) => reference.id === found.id)) references.push({ typeId: EXTENSION_TYPE_ID, id: found.id });
  }
  // The chain counts the Extension itself: A → B → C is three layers.
  const depth = 1 + (await depthBelow(references, load, new Set(selfId === undefined ? [] : [selfId])));
  if (depth > MAX_CHAIN_DEPTH) throw extensionChainTooDeep(depth, MAX_CHAIN_DEPTH);
  return references;
}
