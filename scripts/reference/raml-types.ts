/**
 * Turns the reference's RAML 1.0 DataType files into type facts: parent, discriminator and value,
 * enum values, and properties (name with `?` when optional, type expression or inline enum).
 * Descriptions, examples, patterns, lengths and annotations (`(builder)`, `(beta)`, …) are left
 * out. Anything outside what is handled here stops the generator instead of being misread.
 */
import { parse, type ScalarTag } from 'yaml';
import type { PropertyFact, TypeFact } from '../../packages/testkit/src/reference/facts.js';
import { formatTypeExpression, parseTypeExpression } from '../../packages/testkit/src/reference/type-expression.js';

/** `!include file` is kept as a marker: the index needs the file name, the type files only examples. */
const includeTag: ScalarTag = { tag: '!include', resolve: (path: string) => ({ include: path }) };

export function parseRaml(text: string): unknown {
  return parse(text, { customTags: [includeTag] });
}

/** The index `types.raml`: type name → file path relative to the types folder. */
export function parseTypeIndex(text: string): Map<string, string> {
  const index = new Map<string, string>();
  const document = parseRaml(text);
  if (!isRecord(document)) throw new Error('types.raml is not a mapping');
  for (const [name, entry] of Object.entries(document)) {
    if (!isRecord(entry) || typeof entry.include !== 'string') throw new Error(`types.raml: ${name} is not an !include`);
    index.set(name, entry.include);
  }
  return index;
}

export function typeFactOf(name: string, text: string): TypeFact {
  const document = parseRaml(text);
  if (!isRecord(document)) throw new Error(`${name}: not a RAML DataType mapping`);
  if (document.uses !== undefined) throw new Error(`${name}: library 'uses' is not supported`);
  const properties = isRecord(document.properties) ? propertyFacts(name, document.properties) : undefined;
  const fact: Mutable<TypeFact> = { type: parentOf(name, document.type, properties !== undefined) };
  if (typeof document.discriminator === 'string') fact.discriminator = document.discriminator;
  if (document.discriminatorValue !== undefined) fact.discriminatorValue = String(document.discriminatorValue);
  if (Array.isArray(document.enum)) fact.enum = document.enum.map(String);
  if (properties !== undefined) fact.properties = properties;
  return fact;
}

/** RAML's default parent is `object` when properties are declared, else `string`. */
function parentOf(name: string, type: unknown, hasProperties: boolean): string {
  if (type === undefined || type === null) return hasProperties ? 'object' : 'string';
  if (typeof type !== 'string') throw new Error(`${name}: multiple inheritance or inline parent types are not supported`);
  return normalized(type);
}

function propertyFacts(owner: string, declarations: Record<string, unknown>): Record<string, PropertyFact> {
  const facts: Record<string, PropertyFact> = {};
  for (const [name, declaration] of Object.entries(declarations)) {
    facts[name] = propertyFact(`${owner}.${name}`, declaration);
  }
  return facts;
}

function propertyFact(where: string, declaration: unknown): PropertyFact {
  if (declaration === null || declaration === undefined) return 'string';
  if (typeof declaration === 'string') return normalized(declaration);
  if (!isRecord(declaration)) throw new Error(`${where}: unsupported declaration`);
  if (declaration.properties !== undefined) throw new Error(`${where}: inline object types are not supported`);
  const type = declaration.type ?? (declaration.items === undefined ? 'string' : 'array');
  if (typeof type !== 'string') throw new Error(`${where}: inline or multiple types are not supported`);
  if (type === 'array' && declaration.items !== undefined) return arrayOf(where, declaration.items);
  if (Array.isArray(declaration.enum)) return { type: normalized(type), enum: declaration.enum.map(String) };
  return normalized(type);
}

/** `type: array` with `items: X` (or `items: {type: X}`) is the same fact as `X[]`. */
function arrayOf(where: string, items: unknown): string {
  const itemType = isRecord(items) ? items.type : items;
  if (typeof itemType !== 'string') throw new Error(`${where}: unsupported array items`);
  return formatTypeExpression({ kind: 'array', items: parseTypeExpression(itemType) });
}

/** Checks the expression is in the supported grammar and writes it in one spelling. */
function normalized(expression: string): string {
  return formatTypeExpression(parseTypeExpression(expression.trim()));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
