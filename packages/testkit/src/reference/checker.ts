/**
 * Checks a JSON value against a type of the official API reference, using the vendored facts:
 * required fields present, field names known, enum and discriminator values legal, scalars of the
 * right kind, arrays, maps (pattern properties), unions and inheritance. Every problem is a
 * path-qualified violation ("Cart.lineItems[0].taxedPricePortions: required field missing").
 *
 * Unknown field names are reported for types with a closed set of names; a map type (pattern
 * properties, as LocalizedString's locales) reports keys outside its patterns; a bare `object`
 * accepts any. Extra names a caller knowingly accepts are passed per type in `extraFields`.
 */
import { admitsScalar, describeScalar, isScalarName } from './builtins.js';
import type { PropertyFact, ReferenceFacts } from './facts.js';
import { formatTypeExpression, parseTypeExpression, type TypeExpression } from './type-expression.js';
import { TypeIndex, type DiscriminatorBase, type ObjectShape } from './type-index.js';

export interface Violation {
  /** Where, starting with the checked type's name: `Cart.lineItems[0].price`. */
  readonly path: string;
  /** What is wrong: `required field missing`, `not a string`, `'X' not one of A|B`, … */
  readonly problem: string;
  /** `${path}: ${problem}`. */
  readonly message: string;
}

export interface CheckOptions {
  /**
   * Field names accepted beyond the reference's, per reference type name (they apply to objects
   * of that type and of its subtypes). Meant for fields the product spec requires and the
   * reference does not declare; say which section requires each where the list is written.
   */
  readonly extraFields?: Readonly<Record<string, readonly string[]>>;
  /** The first segment of every path; default: the type name. */
  readonly label?: string;
  /**
   * Values at these paths (`CloudEventsPayload.data`) are checked as instances of all the listed
   * types at once (see `checkAll`) instead of their declared type: for what the product spec
   * says a value holds beyond its reference type, as a message delivery's payload fields.
   */
  readonly asTypes?: Readonly<Record<string, readonly string[]>>;
}

/** More legal values than this are summarised instead of listed. */
const MAX_LISTED_VALUES = 12;

export class ReferenceChecker {
  private readonly index: TypeIndex;

  constructor(readonly facts: ReferenceFacts) {
    this.index = new TypeIndex(facts);
  }

  /** Checks `value` against a type name or type expression (`Store`, `Store[]`, `nil | Store`). */
  check(type: string, value: unknown, options: CheckOptions = {}): Violation[] {
    const walk = new Walk(this.index, options, new Set());
    walk.expression(parseTypeExpression(type), value, options.label ?? type);
    return walk.violations;
  }

  /**
   * Checks a value that is an instance of several types at once (a Platform message delivery is a
   * MessageDeliveryPayload and, when its payload is included, the Message): each type's rules
   * apply, and a top-level field is unknown only when none of them declares it.
   */
  checkAll(types: readonly string[], value: unknown, options: CheckOptions = {}): Violation[] {
    const walk = new Walk(this.index, options, new Set());
    walk.intersection(types, value, options.label ?? types.join(' & '));
    return walk.violations;
  }
}

/** One check's traversal; `rootExtras` are names accepted on the top-level object only. */
class Walk {
  readonly violations: Violation[] = [];
  private atRoot = true;

  constructor(
    private readonly index: TypeIndex,
    private readonly options: CheckOptions,
    private readonly rootExtras: ReadonlySet<string>,
  ) {}

  /** The value at `path` is an instance of every one of `types` (see ReferenceChecker.checkAll). */
  intersection(types: readonly string[], value: unknown, path: string): void {
    const declared = types.map((type) => this.declaredNames(type, value));
    const seen = new Set(this.violations.map((violation) => violation.message));
    types.forEach((type, i) => {
      const others = new Set(declared.filter((_, j) => j !== i).flatMap((names) => [...names]));
      const walk = new Walk(this.index, this.options, others);
      walk.expression(parseTypeExpression(type), value, path);
      for (const violation of walk.violations) {
        if (seen.has(violation.message)) continue;
        seen.add(violation.message);
        this.violations.push(violation);
      }
    });
  }

  /**
   * The property names a type (resolved to its subtype by the value's discriminator) declares, and
   * the value's fields accepted as extras of that type: what one type accepts, the others must too.
   */
  private declaredNames(type: string, value: unknown): ReadonlySet<string> {
    const probe = new Walk(this.index, {}, new Set());
    const resolved = isRecord(value) && this.index.fact(type) !== undefined ? probe.subtypeFor(type, value, '') : undefined;
    if (resolved === undefined || !isRecord(value)) return new Set();
    const names = new Set(this.index.shape(resolved).properties.keys());
    for (const key of Object.keys(value)) if (this.isAcceptedExtra(resolved, key)) names.add(key);
    return names;
  }

  expression(expression: TypeExpression, value: unknown, path: string): void {
    switch (expression.kind) {
      case 'name':
        return this.named(expression.name, value, path);
      case 'array':
        return this.array(expression.items, value, path);
      case 'union':
        return this.union(expression, value, path);
    }
  }

  /**
   * The type a value of `name` is checked as: the subtype its discriminator selects. Undefined
   * when the value names no legal subtype, or one whose facts were not vendored (both reported).
   */
  subtypeFor(name: string, value: Readonly<Record<string, unknown>>, path: string): string | undefined {
    const base = this.index.discriminatorBase(name);
    if (base === undefined) return name;
    const actual = value[base.property];
    if (typeof actual !== 'string' || this.index.fact(name)?.discriminatorValue === actual) return name;
    const subtype = Object.hasOwn(base.subtypes, actual) ? base.subtypes[actual] : undefined;
    if (subtype === undefined && name === base.name && this.index.baseAdmits(base, actual)) return name;
    if (subtype !== undefined && this.index.fact(subtype) === undefined) {
      this.report(path, `facts for ${subtype} (${base.property} '${actual}') are not vendored: add it to scripts/reference/roots.ts and regenerate`);
      return undefined;
    }
    if (subtype === undefined || !this.index.inherits(subtype, name)) {
      this.report(`${path}.${base.property}`, `'${actual}' not one of ${this.legalValues(name, base)}`);
      return undefined;
    }
    return subtype;
  }

  private named(name: string, value: unknown, path: string): void {
    if (isScalarName(name)) {
      if (!admitsScalar(name, value)) this.report(path, `not ${describeScalar(name)}`);
      return;
    }
    if (name === 'array' || name === 'object') {
      if (!(name === 'array' ? Array.isArray(value) : isRecord(value))) this.report(path, `not an ${name}`);
      return;
    }
    const ancestry = this.index.ancestry(name);
    if (ancestry.missing !== undefined) {
      this.report(path, `facts for ${ancestry.missing} are not vendored: add it to scripts/reference/roots.ts and regenerate`);
      return;
    }
    if (ancestry.root === 'object') this.object(name, value, path);
    else this.scalar(ancestry.names, ancestry.root, value, path);
  }

  /** A type over a scalar or a union (CountryCode, ReferenceTypeId, …): its enums, then the root. */
  private scalar(chain: readonly string[], root: string, value: unknown, path: string): void {
    const before = this.violations.length;
    this.expression(parseTypeExpression(root), value, path);
    if (this.violations.length > before) return;
    for (const name of chain) {
      const legal = this.index.fact(name)?.enum;
      if (legal !== undefined) this.enumeration(legal, value, path);
    }
  }

  private object(name: string, value: unknown, path: string): void {
    if (!isRecord(value)) {
      this.report(path, 'not an object');
      return;
    }
    const extras = this.atRoot ? this.rootExtras : new Set<string>();
    this.atRoot = false;
    // With no legal (or no vendored) subtype, the base's own fields are still checked, but names
    // are not: the subtype's fields would all read as unknown.
    const subtype = this.subtypeFor(name, value, path);
    const resolved = subtype ?? name;
    const shape = this.index.shape(resolved);
    for (const property of shape.properties.values()) {
      const field = value[property.name];
      if (field === undefined) {
        if (property.required) this.report(`${path}.${property.name}`, 'required field missing');
      } else this.property(property.type, field, `${path}.${property.name}`);
    }
    for (const [key, field] of Object.entries(value)) {
      if (shape.properties.has(key)) continue;
      const pattern = shape.patterns.find((candidate) => candidate.pattern.test(key));
      if (pattern !== undefined) this.property(pattern.type, field, `${path}.${key}`);
      else if (subtype !== undefined && !extras.has(key) && !this.isAcceptedExtra(resolved, key)) this.unknownName(shape, resolved, key, `${path}.${key}`);
    }
  }

  /** A map's key outside its key patterns (LocalizedString: locales), or a field a closed type lacks. */
  private unknownName(shape: ObjectShape, type: string, key: string, path: string): void {
    if (shape.patterns.length > 0) this.report(path, `name not matching ${shape.patterns.map(({ pattern }) => String(pattern)).join(' or ')} (${type})`);
    else if (!shape.open) this.report(path, `unknown field (not in ${type})`);
  }

  private isAcceptedExtra(name: string, key: string): boolean {
    const extraFields = this.options.extraFields ?? {};
    return this.index.ancestry(name).names.some((owner) => Object.hasOwn(extraFields, owner) && (extraFields[owner] ?? []).includes(key));
  }

  private property(type: PropertyFact, value: unknown, path: string): void {
    const asTypes = this.options.asTypes;
    if (asTypes !== undefined && Object.hasOwn(asTypes, path)) {
      this.intersection(asTypes[path] ?? [], value, path);
      return;
    }
    if (typeof type === 'string') {
      this.expression(parseTypeExpression(type), value, path);
      return;
    }
    const before = this.violations.length;
    this.expression(parseTypeExpression(type.type), value, path);
    if (this.violations.length === before) this.enumeration(type.enum, value, path);
  }

  private enumeration(legal: readonly string[], value: unknown, path: string): void {
    if (!legal.includes(String(value))) this.report(path, `'${String(value)}' not one of ${listed(legal)}`);
  }

  private array(items: TypeExpression, value: unknown, path: string): void {
    if (!Array.isArray(value)) {
      this.report(path, 'not an array');
      return;
    }
    this.atRoot = false;
    value.forEach((item, i) => this.expression(items, item, `${path}[${i}]`));
  }

  /**
   * A value matching any member passes. Otherwise the member that came closest is reported: one
   * whose failures are inside the value (the shape matched) rather than a mismatch of the value
   * itself; if every member failed at the value itself, the union is named.
   */
  private union(expression: Extract<TypeExpression, { kind: 'union' }>, value: unknown, path: string): void {
    const attempts = expression.members.map((member) => {
      const walk = new Walk(this.index, this.options, this.atRoot ? this.rootExtras : new Set());
      walk.atRoot = this.atRoot;
      walk.expression(member, value, path);
      return walk.violations;
    });
    if (attempts.some((violations) => violations.length === 0)) return;
    const deeper = attempts.filter((violations) => violations.some((violation) => violation.path !== path));
    if (deeper.length === 0) {
      this.report(path, `not ${formatTypeExpression(expression)}`);
      return;
    }
    const closest = deeper.reduce((best, violations) => (violations.length < best.length ? violations : best));
    this.violations.push(...closest);
  }

  private legalValues(name: string, base: DiscriminatorBase): string {
    return listed(this.index.admittedValues(name, base));
  }

  private report(path: string, problem: string): void {
    this.violations.push({ path, problem, message: `${path}: ${problem}` });
  }
}

function listed(values: readonly string[]): string {
  if (values.length > MAX_LISTED_VALUES) return `the ${values.length} legal values (${values.slice(0, 3).join('|')}|…)`;
  return values.join('|');
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
