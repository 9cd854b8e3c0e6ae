import type { BaseResource } from '@herald/model';
import type { Predicate } from '@herald/store';
import type { UpdateAction } from '../shared/update-actions.js';
import type { ExtensionCaller, ExtensionInput } from './calls/index.js';
import { conditionHolds, MissingComparedField, parseCondition } from './condition.js';
import { extensionPredicateEvaluationFailed } from './errors.js';
import type { Extension, ExtensionAction } from './extension.js';

/** A write an Extension may be called for: the resource as the request makes it, and as it was. */
export interface ExtensionWrite {
  typeId: string;
  action: ExtensionAction;
  resource: BaseResource;
  old?: BaseResource;
}

/** The update actions one Extension answered. */
export interface ReturnedActions {
  extension: Extension;
  actions: UpdateAction[];
}

export interface RunDeps {
  caller: ExtensionCaller;
  correlationId: string;
  /** The resource with the Extension's `expansionPaths` expanded (ExtensionInput.resource.obj). */
  expand(resource: BaseResource, paths: readonly string[]): Promise<unknown>;
  /** `resource` after the actions some Extensions returned (the input of those that depend on them). */
  applied(resource: BaseResource, returned: readonly ReturnedActions[]): Promise<BaseResource>;
}

const parsedConditions = new Map<string, Predicate>();

/** Conditions are parsed once per process (they were checked when the Extension was written). */
function conditionOf(source: string): Predicate {
  let parsed = parsedConditions.get(source);
  if (parsed === undefined) {
    parsed = parseCondition(source);
    if (parsedConditions.size >= 1_000) parsedConditions.clear();
    parsedConditions.set(source, parsed);
  }
  return parsed;
}

/** Whether a trigger of `extension` for this write fires: its type and action, and its condition if any. */
function fires(extension: Extension, write: ExtensionWrite): boolean {
  return extension.triggers.some((trigger) => {
    if (trigger.resourceTypeId !== write.typeId || !trigger.actions.includes(write.action)) return false;
    if (trigger.condition === undefined) return true;
    try {
      return conditionHolds(conditionOf(trigger.condition), write.resource);
    } catch (error) {
      if (error instanceof MissingComparedField) throw extensionPredicateEvaluationFailed(extension, error.message);
      throw error;
    }
  });
}

/**
 * Dependencies among the Extensions that fire: waves, each waiting for the Extensions its members
 * depend on. A dependency that does not fire for this write is no prerequisite (it runs nowhere).
 */
function waves(firing: readonly Extension[]): Extension[][] {
  const ids = new Set(firing.map((extension) => extension.id));
  const done = new Set<string>();
  const result: Extension[][] = [];
  let left = [...firing];
  while (left.length > 0) {
    const ready = left.filter((extension) => (extension.dependencies ?? []).every((dependency) => !ids.has(dependency.id) || done.has(dependency.id)));
    // A cycle cannot be written (fields.ts); if one slipped in, the rest runs as one wave.
    const wave = ready.length > 0 ? ready : left;
    result.push(wave);
    for (const extension of wave) done.add(extension.id);
    left = left.filter((extension) => !done.has(extension.id));
  }
  return result;
}

/** The Extensions `extension` depends on, directly or not, among those that ran. */
function ancestorsOf(extension: Extension, ran: ReadonlyMap<string, ReturnedActions>): ReturnedActions[] {
  const found = new Map<string, ReturnedActions>();
  const visit = (current: Extension) => {
    for (const dependency of current.dependencies ?? []) {
      const returned = ran.get(dependency.id);
      if (returned === undefined || found.has(dependency.id)) continue;
      found.set(dependency.id, returned);
      visit(returned.extension);
    }
  };
  visit(extension);
  // In the order they ran: what the resource went through.
  return [...ran.values()].filter((returned) => found.has(returned.extension.id));
}

async function inputFor(extension: Extension, write: ExtensionWrite, ancestors: readonly ReturnedActions[], deps: RunDeps): Promise<ExtensionInput> {
  // Reference Extension.dependencies: "receives the resource state after all transitive ancestors' update actions".
  const resource = ancestors.length === 0 ? write.resource : await deps.applied(write.resource, ancestors);
  const paths = extension.expansionPaths ?? [];
  const obj = paths.length === 0 ? resource : await deps.expand(resource, paths);
  const input: ExtensionInput = { action: write.action, resource: { typeId: write.typeId, id: resource.id, obj } };
  // ExtensionAdditionalContext.includeOldResource: "only applies to Update actions".
  if (write.action === 'Update' && write.old !== undefined && extension.additionalContext?.includeOldResource === true) {
    input.oldResource = { typeId: write.typeId, id: write.old.id, obj: write.old };
  }
  return input;
}

/**
 * Calls every Extension of `candidates` that fires for `write` and returns their update actions, in
 * the order to apply them. Independent Extensions are called at once; one that fails (an error
 * answered, no answer, a bad answer) fails the write with its error.
 */
export async function runExtensions(candidates: readonly Extension[], write: ExtensionWrite, deps: RunDeps): Promise<ReturnedActions[]> {
  const firing = candidates.filter((extension) => fires(extension, write));
  const ran = new Map<string, ReturnedActions>();
  for (const wave of waves(firing)) {
    const outcomes = await Promise.all(
      wave.map(async (extension) => {
        const input = await inputFor(extension, write, ancestorsOf(extension, ran), deps);
        return { extension, outcome: await deps.caller.call(extension, input, deps.correlationId) };
      }),
    );
    for (const { extension, outcome } of outcomes) {
      if (!outcome.ok) throw outcome.error;
      ran.set(extension.id, { extension, actions: outcome.actions });
    }
  }
  return [...ran.values()].filter((returned) => returned.actions.length > 0);
}
