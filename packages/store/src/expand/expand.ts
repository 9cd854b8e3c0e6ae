/**
 * Reference expansion (§4.4.7): for each `expand` path, the references it names get `obj`, the
 * referenced resource. Paths go through references implicitly: in `parent.parent` the first
 * `parent` is expanded and the second is looked up inside its `obj` (writing `parent.obj.parent`
 * means the same). Every reference on the way is expanded.
 *
 * A reference that cannot be expanded (not found, not shaped `{typeId, id}`, a path that does not
 * parse or leads nowhere) stays as it is: §7 says expansion failures are not errors.
 *
 * Work is bounded: at most MAX_EXPAND_PATHS paths (more is a 400), at most MAX_EXPAND_DEPTH steps
 * per path, and at most MAX_EXPANDED_REFERENCES references expanded per call. References are
 * loaded level by level, one loader call per type and level, each id at most once per call.
 */
import { invalidInput } from '@herald/model';
import { type ExpandStep, parseExpandPath, type Selector } from './paths.js';

/**
 * Loads resources of one type by id, scoped by the caller (the store scopes it to the project).
 * Ids it does not return stay unexpanded.
 */
export type ReferenceLoader = (typeId: string, ids: readonly string[]) => Promise<Map<string, unknown>>;

export const MAX_EXPAND_PATHS = 10;
export const MAX_EXPANDED_REFERENCES = 5_000;

type JsonObject = Record<string, unknown>;

interface ReferenceNode extends JsonObject {
  typeId: string;
  id: string;
}

/** Where a walk stands: read `steps[next]` from `node`. */
interface Cursor {
  node: JsonObject;
  steps: readonly ExpandStep[];
  next: number;
}

/** A reference a walk reached that needs its `obj`; `then` continues the walk inside `obj`. */
interface Waiting {
  reference: ReferenceNode;
  then: Omit<Cursor, 'node'> | undefined;
}

/**
 * The one check that refuses an `expand` parameter list (400): too many paths. Paths that do not
 * parse are not refused (they expand nothing, §7). Exported so that a caller that writes before it
 * expands can refuse the request before the write, with the same rule and message.
 */
export function assertExpandPaths(paths: readonly string[]): void {
  if (paths.length > MAX_EXPAND_PATHS) {
    throw invalidInput(`At most ${MAX_EXPAND_PATHS} expand parameters are allowed.`, { parameter: 'expand' });
  }
}

/** Expands `paths` in a copy of `doc`; the input is never modified. */
export async function expandReferences<T>(doc: T, paths: readonly string[], loader: ReferenceLoader): Promise<T> {
  const [expanded] = await expandReferencesInMany([doc], paths, loader);
  return expanded as T;
}

/** Expands `paths` in copies of all `docs` (a page), loading each level for all of them at once. */
export async function expandReferencesInMany<T>(docs: readonly T[], paths: readonly string[], loader: ReferenceLoader): Promise<T[]> {
  assertExpandPaths(paths);
  const copies = docs.map((doc) => structuredClone(doc));
  const parsed = [...new Set(paths)].map(parseExpandPath).filter((steps) => steps !== undefined);
  let cursors: Cursor[] = [];
  for (const copy of copies) {
    if (!isObject(copy)) continue;
    for (const steps of parsed) cursors.push({ node: copy, steps, next: 0 });
  }
  const loaded = new LoadedResources(loader);
  let budget = MAX_EXPANDED_REFERENCES;
  while (cursors.length > 0 && budget > 0) {
    const waiting = walk(cursors);
    await loaded.load(waiting.map(({ reference }) => reference));
    cursors = [];
    for (const { reference, then } of waiting) {
      if (!isObject(reference.obj)) {
        const resource = loaded.get(reference);
        if (!isObject(resource) || budget <= 0) continue;
        budget--;
        // A copy per place: the same resource may be expanded further differently elsewhere.
        reference.obj = structuredClone(resource);
      }
      if (then !== undefined && isObject(reference.obj)) cursors.push({ node: reference.obj, ...then });
    }
  }
  return copies;
}

/**
 * Advances every cursor as far as it goes without loading: through plain objects and references
 * that already have `obj`. Returns the references that must be loaded to go on.
 */
function walk(start: readonly Cursor[]): Waiting[] {
  const waiting: Waiting[] = [];
  const stack = [...start];
  for (let cursor = stack.pop(); cursor !== undefined; cursor = stack.pop()) {
    const { steps } = cursor;
    const step = steps[cursor.next];
    if (step === undefined) continue;
    for (const value of select(cursor.node, step)) {
      if (!isReference(value)) {
        // A plain object on the way (`obj.field`, `objArray[*].field`): continue inside it.
        if (cursor.next + 1 < steps.length && isObject(value)) stack.push({ node: value, steps, next: cursor.next + 1 });
        continue;
      }
      let next = cursor.next + 1;
      // `ref.obj.field` spells out what `ref.field` does implicitly.
      const explicitObj = steps[next];
      if (explicitObj?.field === 'obj' && explicitObj.selectors.length === 0) next++;
      const then = next < steps.length ? { steps, next } : undefined;
      if (isObject(value.obj)) {
        if (then !== undefined) stack.push({ node: value.obj, ...then });
      } else {
        waiting.push({ reference: value, then });
      }
    }
  }
  return waiting;
}

/** The values one step names: the field's value, then each `[*]` / `[n]` applied to arrays. */
function select(node: JsonObject, step: ExpandStep): unknown[] {
  let values: unknown[] = Object.hasOwn(node, step.field) ? [node[step.field]] : [];
  for (const selector of step.selectors) values = values.flatMap((value) => elements(value, selector));
  return values;
}

function elements(value: unknown, selector: Selector): unknown[] {
  if (!Array.isArray(value)) return [];
  if (selector === 'all') return value;
  return selector < value.length ? [value[selector]] : [];
}

/** Resources loaded during one expansion, so that each id is asked for at most once. */
class LoadedResources {
  private readonly byType = new Map<string, Map<string, unknown>>();

  constructor(private readonly loader: ReferenceLoader) {}

  async load(references: readonly ReferenceNode[]): Promise<void> {
    const missing = new Map<string, Set<string>>();
    for (const { typeId, id } of references) {
      if (this.byType.get(typeId)?.has(id) === true) continue;
      const ids = missing.get(typeId) ?? new Set<string>();
      ids.add(id);
      missing.set(typeId, ids);
    }
    await Promise.all(
      [...missing].map(async ([typeId, ids]) => {
        const found = await this.loader(typeId, [...ids]);
        const known = this.byType.get(typeId) ?? new Map<string, unknown>();
        // Remember misses too (as undefined), so they are not asked for again.
        for (const id of ids) known.set(id, found.get(id));
        this.byType.set(typeId, known);
      }),
    );
  }

  get({ typeId, id }: ReferenceNode): unknown {
    return this.byType.get(typeId)?.get(id);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §2.1: a Reference is an object with `typeId` and `id` strings. */
function isReference(value: unknown): value is ReferenceNode {
  return isObject(value) && typeof value.typeId === 'string' && typeof value.id === 'string';
}
