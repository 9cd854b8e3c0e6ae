/**
 * Which types are vendored: the closure of the roots over parents, property types and the
 * subtypes of discriminated bases, with two cuts that would otherwise vendor nearly the whole API:
 * - Message has hundreds of subtypes, about every resource of the platform: only those named as
 *   roots are vendored, while the base still lists every legal value;
 * - a Reference's expanded `obj` (Order, Product, …) is not followed: the resources Herald serves,
 *   the only ones it can expand, are roots anyway.
 * A value that needs facts left out is reported by the checker as such, never passed unchecked.
 */
import type { TypeFact } from '../../packages/testkit/src/reference/facts.js';
import { isBuiltinName } from '../../packages/testkit/src/reference/builtins.js';
import { namesIn, parseTypeExpression } from '../../packages/testkit/src/reference/type-expression.js';

/** Discriminated bases whose subtypes are vendored only when they are roots. */
const ROOTS_ONLY_BASES = new Set(['Message', 'MessagePayload']);

export function selectTypes(all: ReadonlyMap<string, TypeFact>, roots: readonly string[]): Map<string, TypeFact> {
  const hierarchy = new Hierarchy(all);
  const rootSet = new Set(roots);
  const selected = new Map<string, TypeFact>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (selected.has(name) || isBuiltinName(name)) continue;
    const fact = all.get(name);
    if (fact === undefined) throw new Error(`Type ${name} is not in the reference`);
    const withSubtypes = fact.discriminator === undefined ? fact : { ...fact, subtypes: hierarchy.subtypesOf(name) };
    selected.set(name, withSubtypes);
    pending.push(...typesUsedBy(withSubtypes, ROOTS_ONLY_BASES.has(name) ? rootSet : undefined));
  }
  return selected;
}

/** Names a type's facts mention: its parent, its properties' types and (some of) its subtypes. */
function typesUsedBy(fact: TypeFact, onlySubtypesIn: ReadonlySet<string> | undefined): string[] {
  const used = namesIn(parseTypeExpression(fact.type));
  for (const [name, property] of Object.entries(fact.properties ?? {})) {
    if (isExpandedObject(fact, name)) continue;
    used.push(...namesIn(parseTypeExpression(typeof property === 'string' ? property : property.type)));
  }
  for (const subtype of Object.values(fact.subtypes ?? {})) {
    if (onlySubtypesIn === undefined || onlySubtypesIn.has(subtype)) used.push(subtype);
  }
  return used;
}

/** `obj?` of a Reference subtype (CustomerReference.obj: Customer, OrderReference.obj: Order, …). */
function isExpandedObject(fact: TypeFact, property: string): boolean {
  return fact.type === 'Reference' && property === 'obj?';
}

class Hierarchy {
  private readonly children = new Map<string, string[]>();

  constructor(private readonly all: ReadonlyMap<string, TypeFact>) {
    for (const [name, fact] of all) {
      const siblings = this.children.get(fact.type) ?? [];
      siblings.push(name);
      this.children.set(fact.type, siblings);
    }
  }

  /** Discriminator value → type, over every descendant of `base` that declares a value. */
  subtypesOf(base: string): Record<string, string> {
    const subtypes: Record<string, string> = {};
    const pending = [...(this.children.get(base) ?? [])];
    for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
      const value = this.all.get(name)?.discriminatorValue;
      if (value !== undefined) {
        const taken = subtypes[value];
        if (taken !== undefined) throw new Error(`${base}: discriminator value '${value}' names both ${taken} and ${name}`);
        subtypes[value] = name;
      }
      pending.push(...(this.children.get(name) ?? []));
    }
    return Object.fromEntries(Object.entries(subtypes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
