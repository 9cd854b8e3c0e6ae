/**
 * The shape of the vendored facts about the official API's types (commercetools-api-reference,
 * RAML 1.0 under `api-specs/api/types`), as `scripts/reference/generate-type-facts.ts` writes them
 * into `type-facts.generated.ts`. Only facts: names, inheritance, discriminators, property names,
 * whether each is required, its type expression and enum values. No descriptions, no examples.
 */

/**
 * A property's type: a RAML type expression (`string`, `Address[]`, `nil | Address`,
 * `(A | B)[]`), or an inline enumeration of a scalar (`{ type: 'string', enum: ['1.0'] }`).
 */
export type PropertyFact = string | InlineEnumFact;

export interface InlineEnumFact {
  readonly type: string;
  readonly enum: readonly string[];
}

export interface TypeFact {
  /**
   * What the type extends (RAML `type:`): a built-in (`object`, `string`, `number`, …), another
   * vendored type's name, or a type expression (a union).
   */
  readonly type: string;
  /** The property whose value selects a subtype (RAML `discriminator`), on the base type. */
  readonly discriminator?: string;
  /** This subtype's value of the discriminator property (RAML `discriminatorValue`). */
  readonly discriminatorValue?: string;
  /** The legal values of an enumeration type. */
  readonly enum?: readonly string[];
  /**
   * Declared properties in the reference's order. A name ending in `?` is optional; a name that
   * is a `/regex/` is a pattern property (a map key rule; `//` matches any name).
   */
  readonly properties?: Readonly<Record<string, PropertyFact>>;
  /**
   * On a discriminated base: every legal discriminator value → the subtype it selects, including
   * subtypes whose own facts were not vendored (so a legal value is told from an illegal one).
   */
  readonly subtypes?: Readonly<Record<string, string>>;
}

export interface ReferenceFacts {
  readonly source: {
    readonly repository: string;
    readonly commit: string;
  };
  readonly types: Readonly<Record<string, TypeFact>>;
}
