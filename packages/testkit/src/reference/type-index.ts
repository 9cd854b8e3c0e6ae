/**
 * Lookups over the vendored facts that the checker needs again and again: a type's ancestry, its
 * properties merged down the chain (a subtype's declaration wins), its pattern properties, and
 * the discriminator values a type and its vendored descendants admit.
 */
import type { PropertyFact, ReferenceFacts, TypeFact } from './facts.js';
import { isBuiltinName } from './builtins.js';

export interface DeclaredProperty {
  readonly name: string;
  readonly required: boolean;
  readonly type: PropertyFact;
}

export interface PatternProperty {
  readonly pattern: RegExp;
  readonly type: PropertyFact;
}

export interface ObjectShape {
  readonly properties: ReadonlyMap<string, DeclaredProperty>;
  readonly patterns: readonly PatternProperty[];
  /** No rule on names: an `object` that declares no properties, not even pattern ones. */
  readonly open: boolean;
}

export interface Ancestry {
  /** The type itself first, then its parents, as far as they are vendored types. */
  readonly names: readonly string[];
  /** What the last of them extends: a built-in name or a union expression. */
  readonly root: string;
  /** A parent named in the facts but not vendored, if the chain stops early. */
  readonly missing?: string;
}

export interface DiscriminatorBase {
  readonly name: string;
  readonly property: string;
  readonly subtypes: Readonly<Record<string, string>>;
}

export class TypeIndex {
  private readonly ancestries = new Map<string, Ancestry>();
  private readonly shapes = new Map<string, ObjectShape>();

  constructor(readonly facts: ReferenceFacts) {}

  fact(name: string): TypeFact | undefined {
    return Object.hasOwn(this.facts.types, name) ? this.facts.types[name] : undefined;
  }

  ancestry(name: string): Ancestry {
    let ancestry = this.ancestries.get(name);
    if (ancestry === undefined) {
      ancestry = this.walkUp(name);
      this.ancestries.set(name, ancestry);
    }
    return ancestry;
  }

  /** Whether `name` is `ancestor` or inherits from it. */
  inherits(name: string, ancestor: string): boolean {
    return this.ancestry(name).names.includes(ancestor);
  }

  /** The nearest type of the chain that declares a discriminator. */
  discriminatorBase(name: string): DiscriminatorBase | undefined {
    for (const candidate of this.ancestry(name).names) {
      const fact = this.fact(candidate);
      if (fact?.discriminator !== undefined) return { name: candidate, property: fact.discriminator, subtypes: fact.subtypes ?? {} };
    }
    return undefined;
  }

  /**
   * The discriminator values a value of type `name` may carry: its vendored descendants', and on
   * the base itself also every value of the discriminator's own enum (see baseAdmits).
   */
  admittedValues(name: string, base: DiscriminatorBase): string[] {
    const values = Object.entries(base.subtypes)
      .filter(([, subtype]) => name === base.name || (this.fact(subtype) !== undefined && this.inherits(subtype, name)))
      .map(([value]) => value);
    if (name === base.name) values.push(...(this.discriminatorEnum(base) ?? []).filter((value) => !values.includes(value)));
    return values;
  }

  /**
   * Whether a value is an instance of the base itself: its discriminator's declared type is an
   * enum that lists the value, though no subtype is selected by it (Reference.typeId
   * `subscription`: ReferenceTypeId lists it, no SubscriptionReference exists).
   */
  baseAdmits(base: DiscriminatorBase, value: string): boolean {
    return this.discriminatorEnum(base)?.includes(value) ?? false;
  }

  private discriminatorEnum(base: DiscriminatorBase): readonly string[] | undefined {
    const declared = this.shape(base.name).properties.get(base.property)?.type;
    if (declared === undefined) return undefined;
    if (typeof declared !== 'string') return declared.enum;
    const legal = this.ancestry(declared).names.flatMap((owner) => this.fact(owner)?.enum ?? []);
    return legal.length === 0 ? undefined : legal;
  }

  shape(name: string): ObjectShape {
    let shape = this.shapes.get(name);
    if (shape === undefined) {
      shape = this.mergeShape(name);
      this.shapes.set(name, shape);
    }
    return shape;
  }

  private walkUp(name: string): Ancestry {
    const names: string[] = [];
    let current = name;
    for (;;) {
      const fact = this.fact(current);
      if (fact === undefined) return { names, root: 'any', missing: current };
      names.push(current);
      if (isBuiltinName(fact.type) || /[|[(]/.test(fact.type)) return { names, root: fact.type };
      if (names.includes(fact.type)) throw new Error(`The facts have an inheritance cycle at ${fact.type}`);
      current = fact.type;
    }
  }

  /** Root first, so that a subtype's declaration of the same name replaces its parent's. */
  private mergeShape(name: string): ObjectShape {
    const properties = new Map<string, DeclaredProperty>();
    const patterns: PatternProperty[] = [];
    for (const owner of [...this.ancestry(name).names].reverse()) {
      for (const [declared, type] of Object.entries(this.fact(owner)?.properties ?? {})) {
        if (declared.startsWith('/') && declared.endsWith('/')) {
          patterns.push({ pattern: new RegExp(declared.slice(1, -1)), type });
          continue;
        }
        const optional = declared.endsWith('?');
        const propertyName = optional ? declared.slice(0, -1) : declared;
        properties.set(propertyName, { name: propertyName, required: !optional, type });
      }
    }
    return { properties, patterns, open: patterns.length === 0 && properties.size === 0 };
  }
}
